import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { ProcessSlots } from '../../core/ports/process-slots';
import type { TurnTools } from '../../core/ports/turn-tools';
import { type EndpointRun, runMcpServer } from './run-mcp-server';

/** What a run opens the endpoint with. */
export interface McpEndpointRequest {
  runId: string;
  tools: TurnTools;
  /** The run's signal: calls still waiting when it aborts end with it. */
  signal: AbortSignal;
  /** T1: the run's process slots, given back while a call waits. */
  slots?: ProcessSlots;
  /** A call came back (the silence watchdog hears it, A12). */
  onSettled?: () => void;
}

/** One run's way in: its own unguessable address, refused once `close` has run. */
export interface McpRunEndpoint {
  /** `http://127.0.0.1:<port>/mcp/<secret>`: the only MCP server the run's CLI agent is given. */
  url: string;
  /** X2: the endpoint's loopback port, forwarded into the run's sandbox. */
  port: number;
  /** Calls under way (an approval may be open): the agent is blocked, not silent (A12). */
  readonly pending: number;
  /** Revokes the address and ends the calls still waiting. */
  close(): Promise<void>;
}

const PATH_PREFIX = '/mcp/';

/**
 * E2, X2: Summon's MCP endpoint for CLI agents: one HTTP server on 127.0.0.1 for the process,
 * started on the first run that needs it and stopped when no run holds it. Each run gets a
 * path of its own (`/mcp/<32 random bytes>`), looked up by its hash (no timing on the
 * secret) and forgotten when the run ends. The endpoint holds no server credential: it only
 * calls the run's `TurnTools` (Summon's own MCP client does the rest).
 */
export class McpEndpoint {
  private readonly runs = new Map<string, EndpointRun & { abort: AbortController }>();
  private listening: Promise<{ server: Server; port: number }> | undefined;

  async open(request: McpEndpointRequest): Promise<McpRunEndpoint> {
    const secret = randomBytes(32).toString('base64url');
    const key = hashOf(secret);
    const abort = new AbortController();
    const pending = { count: 0 };
    const run = {
      runId: request.runId,
      tools: request.tools,
      signal: AbortSignal.any([request.signal, abort.signal]),
      pending,
      abort,
      ...(request.slots === undefined ? {} : { slots: request.slots }),
      ...(request.onSettled === undefined ? {} : { onSettled: request.onSettled }),
    };
    this.runs.set(key, run);
    let port: number;
    try {
      ({ port } = await this.listen());
    } catch (error) {
      this.runs.delete(key);
      throw error;
    }
    return {
      url: `http://127.0.0.1:${port}${PATH_PREFIX}${secret}`,
      port,
      get pending() {
        return pending.count;
      },
      close: async () => {
        if (!this.runs.delete(key)) return;
        abort.abort();
        if (this.runs.size === 0) await this.stop();
      },
    };
  }

  /** Stops the server (the process's shutdown); every run's address is refused from then on. */
  async close(): Promise<void> {
    for (const run of this.runs.values()) run.abort.abort();
    this.runs.clear();
    await this.stop();
  }

  private listen(): Promise<{ server: Server; port: number }> {
    this.listening ??= new Promise((resolve, reject) => {
      const server = createServer((req, res) => {
        void this.answer(req, res).catch(() => refuse(res, 500, 'The MCP endpoint failed on this request.'));
      });
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve({ server, port: (server.address() as AddressInfo).port }));
    });
    const started = this.listening;
    started.catch(() => {
      if (this.listening === started) this.listening = undefined;
    });
    return started;
  }

  private async stop(): Promise<void> {
    const started = this.listening;
    this.listening = undefined;
    if (started === undefined) return;
    const { server } = await started.catch(() => ({ server: undefined }));
    if (server === undefined) return;
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }

  private async answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const secret = url.pathname.startsWith(PATH_PREFIX) ? url.pathname.slice(PATH_PREFIX.length) : '';
    const run = secret === '' ? undefined : this.runs.get(hashOf(secret));
    // E2: an address that is not a live run's (another run's guess, an ended run's) gets nothing.
    if (run === undefined || run.signal.aborted)
      return refuse(res, 404, 'This MCP endpoint is not open: its run has ended, or the address is wrong.');
    // Stateless (no `sessionIdGenerator`): no server-to-client stream and no session to end; every call is one POST.
    if (req.method !== 'POST') {
      res.setHeader('allow', 'POST');
      return refuse(res, 405, 'This MCP endpoint takes only POST requests (streamable HTTP, stateless).');
    }
    const server = runMcpServer(run);
    const transport = new StreamableHTTPServerTransport({});
    // The agent hanging up ends its call (the server's close aborts it); the run's end does too,
    // through the call's own signal.
    res.on('close', () => void server.close().catch(() => undefined));
    await server.connect(transport);
    await transport.handleRequest(req, res);
  }
}

function hashOf(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/** A refusal as a JSON-RPC error with the sentence (what an MCP client shows). */
function refuse(res: ServerResponse, status: number, message: string): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}
