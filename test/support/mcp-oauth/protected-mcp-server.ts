import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { requireBearerAuth } from '@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js';
import {
  getOAuthProtectedResourceMetadataUrl,
  mcpAuthRouter,
} from '@modelcontextprotocol/sdk/server/auth/router.js';
import { createMcpExpressApp } from '@modelcontextprotocol/sdk/server/express.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { TestOAuthProvider } from './test-oauth-provider';

/** E5: a remote MCP server behind OAuth, with its own authorization server, on one local port. */
export interface ProtectedMcpServer {
  /** The MCP endpoint (`<origin>/mcp`), what a workspace would declare as the server's `url`. */
  url: string;
  /** The authorization server's side: what it issued, refreshed, revoked. */
  oauth: TestOAuthProvider;
  /** Requests that reached `/mcp` with a valid token. */
  authorizedCalls: number;
  close(): Promise<void>;
}

/**
 * E5: the SDK's own pieces, wired as a real deployment would: `mcpAuthRouter` (metadata,
 * dynamic client registration, authorize, token, revoke) over `TestOAuthProvider`, the
 * protected resource metadata for `/mcp`, and `/mcp` behind `requireBearerAuth`, answering a
 * `whoami` tool with the subject its token was issued to (stateless streamable HTTP).
 */
export async function startProtectedMcpServer(): Promise<ProtectedMcpServer> {
  const oauth = new TestOAuthProvider();
  const app = createMcpExpressApp({ host: '127.0.0.1' });
  const http: Server = createServer(app);
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  const mcpUrl = new URL('/mcp', origin);
  const off = { rateLimit: false } as const;
  app.use(
    mcpAuthRouter({
      provider: oauth,
      issuerUrl: new URL(origin),
      resourceServerUrl: mcpUrl,
      authorizationOptions: off,
      tokenOptions: off,
      clientRegistrationOptions: off,
      revocationOptions: off,
    }),
  );
  const state: ProtectedMcpServer = {
    url: mcpUrl.href,
    oauth,
    authorizedCalls: 0,
    close: () => new Promise<void>((resolve) => http.close(() => resolve())),
  };
  const bearer = requireBearerAuth({
    verifier: oauth,
    resourceMetadataUrl: getOAuthProtectedResourceMetadataUrl(mcpUrl),
  });
  app.post('/mcp', bearer, async (req, res) => {
    state.authorizedCalls += 1;
    const server = new McpServer({ name: 'protected', version: '1.0.0' });
    server.registerTool('whoami', { description: 'who the token was issued to' }, async (extra) => ({
      content: [{ type: 'text', text: String(extra.authInfo?.extra?.subject ?? 'nobody') }],
    }));
    const transport = new StreamableHTTPServerTransport({});
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, req.body);
  });
  // Stateless: no server-sent stream to open, no session to end.
  app.get('/mcp', bearer, (_req, res) => res.status(405).end());
  app.delete('/mcp', bearer, (_req, res) => res.status(405).end());
  return state;
}
