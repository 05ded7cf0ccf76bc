import type { IncomingMessage, ServerResponse } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Logger } from '../../core/ports/logger';
import type { MemberTools } from '../../core/ports/member-tools';
import { registerMemberTools } from './member-tool-definitions';

export const MCP_PATH = '/mcp';

/**
 * E6: Summon as an MCP server on its own HTTP server: `/mcp`, streamable HTTP without sessions
 * (each request is served by a fresh server and transport, so any `web` process can take any
 * request), authorized by a member's personal token (`Authorization: Bearer smn_…`).
 */
export class McpHttpEndpoint {
  private readonly logger: Logger;

  constructor(private readonly deps: { tools: MemberTools; logger: Logger; version: string }) {
    this.logger = deps.logger.child({ component: 'mcp-server' });
  }

  /** Takes `/mcp` requests; false for any other path. */
  handle(request: IncomingMessage, response: ServerResponse): boolean {
    const path = (request.url ?? '').split('?')[0];
    if (path !== MCP_PATH) return false;
    void this.serve(request, response).catch((error: unknown) => {
      this.logger.error({ err: String(error) }, 'MCP request failed');
      if (!response.headersSent) rpcError(response, 500, -32603, 'Internal error');
      else response.end();
    });
    return true;
  }

  private async serve(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const token = bearerToken(request.headers.authorization);
    const caller = token === null ? null : await this.deps.tools.authenticate(token);
    if (caller === null) {
      // E6: one info line, never the token: whether one was sent is enough to tell the cases apart.
      this.logger.info(
        { method: request.method, token: token === null ? 'missing' : 'unknown or revoked' },
        'MCP request refused: no valid personal token',
      );
      // RFC 6750: a request without credentials gets no error code; a bad token, invalid_token.
      response.setHeader(
        'WWW-Authenticate',
        token === null ? 'Bearer realm="summon"' : 'Bearer realm="summon", error="invalid_token"',
      );
      rpcError(
        response,
        401,
        -32001,
        'Unauthorized: send `Authorization: Bearer <token>` with a personal token from `summon members token <nickname>` or `/summon token`.',
      );
      return;
    }
    const gone = new AbortController();
    response.on('close', () => gone.abort());
    const server = new McpServer({ name: 'summon', version: this.deps.version });
    registerMemberTools(server, {
      tools: this.deps.tools,
      caller,
      logger: this.logger,
      requestGone: gone.signal,
    });
    // Stateless (no session id generator): no request depends on the process that served the
    // one before. Plain JSON answers: each call is one request and one response.
    const transport = new StreamableHTTPServerTransport({ enableJsonResponse: true });
    response.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(request, response);
  }
}

function bearerToken(header: string | undefined): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return match?.[1] ?? null;
}

function rpcError(response: ServerResponse, status: number, code: number, message: string): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}
