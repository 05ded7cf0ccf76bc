// E1, E2: the test MCP server over streamable HTTP on 127.0.0.1:0 (stateless: a server per
// request). Every request must carry `Authorization: $MCP_EXPECT_AUTHORIZATION`; it prints
// `listening <port>` once ready and `authorization <value>` for each request it refused.
const http = require('node:http');
const { StreamableHTTPServerTransport } = require('@modelcontextprotocol/sdk/server/streamableHttp.js');
const { testServer } = require('./test-tools.cjs');

const expected = process.env.MCP_EXPECT_AUTHORIZATION;
const listener = http.createServer((req, res) => {
  if (req.headers.authorization !== expected) {
    process.stdout.write(`refused ${JSON.stringify(req.headers.authorization ?? null)}\n`);
    res.writeHead(401, { 'content-type': 'text/plain' }).end('unauthorized');
    return;
  }
  if (req.method !== 'POST') {
    res.writeHead(405, { allow: 'POST' }).end();
    return;
  }
  const server = testServer();
  const transport = new StreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  res.on('close', () => {
    void transport.close();
    void server.close();
  });
  server
    .connect(transport)
    .then(() => transport.handleRequest(req, res))
    .catch((error) => {
      process.stderr.write(`${error}\n`);
      if (!res.headersSent) res.writeHead(500).end();
    });
});
listener.listen(0, '127.0.0.1', () => process.stdout.write(`listening ${listener.address().port}\n`));
