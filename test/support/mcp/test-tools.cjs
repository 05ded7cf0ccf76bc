// E1, E3: the tools of the test MCP servers (stdio and streamable HTTP), built with the SDK's
// low-level Server so their JSON schemas reach the client exactly as written here.
const { appendFileSync, readFileSync } = require('node:fs');
const http = require('node:http');
const { Server } = require('@modelcontextprotocol/sdk/server/index.js');
const { CallToolRequestSchema, ListToolsRequestSchema } = require('@modelcontextprotocol/sdk/types.js');

/** The input schema of `search`, with what zod would not produce (a pattern, examples, $defs). */
const SEARCH_SCHEMA = {
  type: 'object',
  properties: {
    query: { type: 'string', description: 'What to look for.', minLength: 1, examples: ['flaky test'] },
    limit: { type: 'integer', minimum: 1, maximum: 50, default: 10 },
    scope: { $ref: '#/$defs/scope' },
  },
  required: ['query'],
  additionalProperties: false,
  $defs: { scope: { type: 'string', enum: ['open', 'closed', 'all'] } },
};

const TOOLS = [
  {
    name: 'search',
    description: 'Search the issues (read-only).',
    inputSchema: SEARCH_SCHEMA,
    annotations: { readOnlyHint: true },
  },
  {
    name: 'create_issue',
    description: 'Create an issue.',
    inputSchema: {
      type: 'object',
      properties: { title: { type: 'string' }, body: { type: 'string' } },
      required: ['title'],
    },
  },
  { name: 'crash', description: 'Exits the server process.', inputSchema: { type: 'object' } },
  { name: 'huge', description: 'Answers 10 MB of text.', inputSchema: { type: 'object' } },
  { name: 'hang', description: 'Never answers.', inputSchema: { type: 'object' } },
  { name: 'garbage', description: 'Prints what is not JSON-RPC.', inputSchema: { type: 'object' } },
  { name: 'failing', description: 'Answers with isError.', inputSchema: { type: 'object' } },
  { name: 'picture', description: 'Answers an image and text.', inputSchema: { type: 'object' } },
  {
    name: 'read_path',
    description: 'Reads a file.',
    inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
    annotations: { readOnlyHint: true },
  },
  {
    name: 'environment',
    description: 'The server process environment.',
    inputSchema: { type: 'object' },
    annotations: { readOnlyHint: true },
  },
  {
    name: 'add_tool',
    description: 'Adds the tool `late` and says the list changed.',
    inputSchema: { type: 'object' },
  },
  {
    name: 'fetch_url',
    description: 'GETs a URL (through HTTP_PROXY when set).',
    inputSchema: { type: 'object', properties: { url: { type: 'string' } }, required: ['url'] },
    annotations: { readOnlyHint: true },
  },
];

const text = (value) => ({ content: [{ type: 'text', text: value }] });

/** A plain-HTTP GET, through the proxy of HTTP_PROXY when there is one. */
function get(url) {
  const proxy = process.env.HTTP_PROXY;
  const target = new URL(url);
  const options = proxy
    ? { host: new URL(proxy).hostname, port: new URL(proxy).port, path: url, headers: { host: target.host } }
    : { host: target.hostname, port: target.port, path: target.pathname };
  return new Promise((resolve) => {
    const request = http.get({ ...options, timeout: 5000 }, (response) => {
      let body = '';
      response.on('data', (chunk) => {
        body += chunk;
      });
      response.on('end', () => resolve(`status ${response.statusCode}: ${body.trim()}`));
    });
    request.on('timeout', () => request.destroy(new Error('timed out')));
    request.on('error', (error) => resolve(`error: ${error.code ?? error.message}`));
  });
}

/** A server with the test tools; `write` prints a raw line on the transport (stdio only). */
function testServer(options = {}) {
  const server = new Server(
    { name: 'summon-test', version: '1.0.0' },
    { capabilities: { tools: { listChanged: true } } },
  );
  const log = process.env.MCP_CALL_LOG ?? 'calls.log';
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: TOOLS }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const args = request.params.arguments ?? {};
    switch (request.params.name) {
      case 'search':
        return text(`found 2 issues for "${args.query}"`);
      case 'create_issue':
        appendFileSync(log, `${JSON.stringify({ tool: 'create_issue', args })}\n`);
        return text(`created issue "${args.title}"`);
      case 'crash':
        process.exit(3);
        return text('unreachable');
      case 'huge':
        return text('x'.repeat(10 * 1024 * 1024));
      case 'hang':
        return new Promise(() => undefined);
      case 'garbage':
        options.write?.('this is not JSON-RPC at all\n');
        options.write?.(
          `${JSON.stringify({ jsonrpc: '2.0', id: extra.requestId, result: { content: 'not a list' } })}\n`,
        );
        return new Promise(() => undefined);
      case 'failing':
        return { isError: true, content: [{ type: 'text', text: 'the tracker is down for maintenance' }] };
      case 'picture':
        return {
          content: [
            { type: 'image', mimeType: 'image/png', data: Buffer.alloc(3000).toString('base64') },
            { type: 'text', text: 'a blank picture' },
          ],
        };
      case 'read_path':
        try {
          return text(readFileSync(args.path, 'utf8'));
        } catch (error) {
          return text(`cannot read: ${error.code ?? error.message}`);
        }
      case 'environment':
        return text(JSON.stringify(process.env));
      case 'fetch_url':
        return text(await get(args.url));
      case 'add_tool':
        if (!TOOLS.some((tool) => tool.name === 'late'))
          TOOLS.push({ name: 'late', description: 'Came later.', inputSchema: { type: 'object' } });
        await server.sendToolListChanged();
        return text('added');
      default:
        return { isError: true, content: [{ type: 'text', text: `no tool ${request.params.name}` }] };
    }
  });
  return server;
}

module.exports = { testServer, TOOLS, SEARCH_SCHEMA };
