import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { OpenedTransport } from './server-transport';

/** At most this many pages of a server's tools list are read. */
const MAX_LIST_PAGES = 20;

/**
 * E2, E3: one connected MCP client of the pool (one server spec of one workspace): its tools
 * listed once and kept until the server says they changed, its calls each bounded by a
 * timeout and the turn's signal. `closed` once its transport ended for any reason (the pool
 * then drops it and the next call starts the server again).
 */
export class McpConnection {
  closed = false;
  private tools: Tool[] | undefined;
  private idle: NodeJS.Timeout | undefined;
  private released: Promise<void> | undefined;
  /** Calls and listings under way: an idle timer that fires meanwhile waits again. */
  private busy = 0;

  private constructor(
    private readonly client: Client,
    readonly opened: OpenedTransport,
  ) {}

  /** Connects (the MCP handshake included) within `timeoutMs`; `onClosed` is told once it ends. */
  static async open(
    opened: OpenedTransport,
    options: { timeoutMs: number; signal: AbortSignal; onClosed: (connection: McpConnection) => void },
  ): Promise<McpConnection> {
    const client = new Client(
      { name: 'summon', version: '1' },
      {
        capabilities: {},
        // E1: a server whose tools changed is listed again at the next turn's start.
        listChanged: { tools: { autoRefresh: false, debounceMs: 0, onChanged: () => connection.forget() } },
      },
    );
    const connection = new McpConnection(client, opened);
    client.onclose = () => {
      if (connection.closed) return;
      connection.closed = true;
      clearTimeout(connection.idle);
      options.onClosed(connection);
      void connection.release();
    };
    // E3: a line that is not JSON-RPC, or a notification that fails, is not the call's failure.
    client.onerror = () => undefined;
    try {
      await bounded(options, (signal) =>
        client.connect(opened.transport, { signal, timeout: options.timeoutMs }),
      );
    } catch (error) {
      await connection.close();
      throw error;
    }
    return connection;
  }

  /** The server's tools (listed once, then from memory until the server says they changed). */
  async listTools(options: { timeoutMs: number; signal: AbortSignal }): Promise<Tool[]> {
    if (this.tools !== undefined) return this.tools;
    this.busy += 1;
    try {
      this.tools = await this.listAll(options);
      return this.tools;
    } finally {
      this.busy -= 1;
    }
  }

  private async listAll(options: { timeoutMs: number; signal: AbortSignal }): Promise<Tool[]> {
    const tools: Tool[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_LIST_PAGES; page += 1) {
      const listed = await bounded(options, (signal) =>
        this.client.listTools(cursor === undefined ? undefined : { cursor }, {
          signal,
          timeout: options.timeoutMs,
        }),
      );
      tools.push(...listed.tools);
      cursor = listed.nextCursor;
      if (cursor === undefined) break;
    }
    return tools;
  }

  async callTool(
    tool: string,
    args: Readonly<Record<string, unknown>>,
    options: { timeoutMs: number; signal: AbortSignal },
  ): Promise<CallToolResult> {
    this.busy += 1;
    try {
      return (await bounded(options, (signal) =>
        this.client.callTool({ name: tool, arguments: { ...args } }, undefined, {
          signal,
          timeout: options.timeoutMs,
          maxTotalTimeout: options.timeoutMs,
        }),
      )) as CallToolResult;
    } finally {
      this.busy -= 1;
    }
  }

  /** Closes after `ms` without use (each use sets it again); `onIdle` is told first. */
  idleAfter(ms: number, onIdle: () => void): void {
    clearTimeout(this.idle);
    this.idle = setTimeout(() => {
      // A call still running (longer than the idle time) keeps its connection.
      if (this.busy > 0) return this.idleAfter(ms, onIdle);
      onIdle();
      void this.close();
    }, ms);
    this.idle.unref();
  }

  forget(): void {
    this.tools = undefined;
  }

  async close(): Promise<void> {
    clearTimeout(this.idle);
    await this.client.close().catch(() => undefined);
    this.closed = true;
    await this.release();
  }

  /** What the server held besides its process (its folder, its proxy), given back once. */
  private release(): Promise<void> {
    this.released ??= this.opened.release().catch(() => undefined);
    return this.released;
  }
}

/**
 * The SDK adds a listener to the signal it is given and never removes it: each request gets a
 * signal of its own, tied to the caller's only while it runs.
 */
async function bounded<T>(
  options: { signal: AbortSignal },
  work: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const own = new AbortController();
  const abort = () => own.abort(options.signal.reason);
  if (options.signal.aborted) abort();
  options.signal.addEventListener('abort', abort, { once: true });
  try {
    return await work(own.signal);
  } finally {
    options.signal.removeEventListener('abort', abort);
  }
}

/** `work`, or its caller's abort (`work` goes on for whoever else waits on it). */
export function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
