import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { LaunchedProcess } from '../sandbox/process-launcher';

const STDERR_TAIL = 2000;

/** What ended a server process's connection, when Summon saw why. */
export type ProcessTransportEnd = { kind: 'oversized'; limitBytes: number } | { kind: 'exited' };

/**
 * E3: MCP over the stdin/stdout of a process Summon launched (under the sandbox: `launch` is
 * the launcher's call, so the SDK never spawns anything itself). A line that is not JSON-RPC is
 * reported and skipped; an answer larger than `maxMessageBytes` ends the process (a server
 * that floods stdout is not read into memory), and `ended` says so for the caller's sentence.
 * The process's stderr is kept only as a short tail for the log (E2: it may hold the server's
 * credentials, so the caller redacts it, and it never reaches the model).
 */
export class ProcessTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  ended: ProcessTransportEnd | undefined;
  /** The end of what the process wrote to stderr, for the operator's log only (redacted there). */
  stderr = '';
  private call: LaunchedProcess | undefined;
  private readonly buffer: ReadBuffer;
  private closed = false;

  constructor(
    private readonly launch: () => Promise<LaunchedProcess>,
    private readonly options: { maxMessageBytes: number; killGraceMs: number },
  ) {
    this.buffer = new ReadBuffer({ maxBufferSize: options.maxMessageBytes });
  }

  async start(): Promise<void> {
    const call = await this.launch();
    this.call = call;
    const { child } = call;
    child.stderr.on('data', (chunk: Buffer) => {
      this.stderr = (this.stderr + chunk.toString('utf8')).slice(-STDERR_TAIL);
    });
    child.stdin.on('error', (error) => this.onerror?.(error));
    child.stdout.on('error', (error) => this.onerror?.(error));
    child.stdout.on('data', (chunk: Buffer) => this.read(chunk));
    void call.done.then(() => this.finish({ kind: 'exited' }));
  }

  async send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.call?.child.stdin;
    if (stdin === undefined || this.closed || stdin.destroyed)
      throw new Error('The server process is not running.');
    if (!stdin.write(serializeMessage(message))) {
      await new Promise<void>((resolve) => {
        const done = () => {
          stdin.off('drain', done);
          stdin.off('close', done);
          resolve();
        };
        stdin.on('drain', done);
        stdin.on('close', done);
      });
    }
  }

  async close(): Promise<void> {
    const call = this.call;
    if (call === undefined) return this.finish({ kind: 'exited' });
    call.child.stdin.end();
    await call.end(this.options.killGraceMs);
    this.finish({ kind: 'exited' });
  }

  private read(chunk: Buffer): void {
    if (this.closed) return;
    try {
      this.buffer.append(chunk);
    } catch {
      // E3: an answer over the limit: the process is ended rather than read any further.
      this.ended ??= { kind: 'oversized', limitBytes: this.options.maxMessageBytes };
      void this.close();
      return;
    }
    for (;;) {
      let message: JSONRPCMessage | null;
      try {
        message = this.buffer.readMessage();
      } catch (error) {
        // E3: a line that is not JSON-RPC (a server printing to stdout) is skipped.
        this.onerror?.(error instanceof Error ? error : new Error(String(error)));
        continue;
      }
      if (message === null) return;
      this.onmessage?.(message);
    }
  }

  private finish(end: ProcessTransportEnd): void {
    if (this.closed) return;
    this.closed = true;
    this.ended ??= end;
    this.buffer.clear();
    this.onclose?.();
  }
}
