// E3: the test MCP server over stdio (run under Summon's sandbox by the tests).
const { StdioServerTransport } = require('@modelcontextprotocol/sdk/server/stdio.js');
const { testServer } = require('./test-tools.cjs');

const server = testServer({ write: (line) => process.stdout.write(line) });
server.connect(new StdioServerTransport()).catch((error) => {
  process.stderr.write(`${error}\n`);
  process.exit(1);
});
