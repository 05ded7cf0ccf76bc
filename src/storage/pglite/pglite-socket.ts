import { Duplex } from 'node:stream';
import type { PgliteEngine } from './pglite-engine';

/** Frontend message type of Terminate: the client is leaving. */
const TERMINATE = 0x58; // 'X'

/**
 * A socket-shaped stream that node-postgres (`pg`) connects through, as it would through TCP:
 * what pg writes is cut into whole protocol messages and handed to the engine; the engine's
 * reply is what pg reads. Everything else (parsing, types, errors) is ordinary pg.
 */
export class PgliteSocket extends Duplex {
  private pending: Buffer = Buffer.alloc(0);
  /** The first message (startup) has no type byte; every later one has. */
  private started = false;
  private replies: Promise<void> = Promise.resolve();

  constructor(private readonly engine: PgliteEngine) {
    super();
  }

  // The net.Socket surface pg uses.
  connect(): this {
    process.nextTick(() => this.emit('connect'));
    return this;
  }
  setNoDelay(): this {
    return this;
  }
  setKeepAlive(): this {
    return this;
  }
  ref(): this {
    return this;
  }
  unref(): this {
    return this;
  }

  override _read(): void {}

  /**
   * pg corks the stream around an extended query (Parse, Bind, Describe, Execute, Sync): the
   * corked writes arrive here together and go to the engine as one batch, one round trip to its
   * worker, as a TCP server would read them in one segment, not one round trip (and one pass of
   * PGlite's main loop) per message (T3).
   */
  override _writev(
    chunks: { chunk: Buffer; encoding: BufferEncoding }[],
    callback: (error?: Error | null) => void,
  ): void {
    this.accept(chunks.map(({ chunk }) => chunk));
    callback();
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.accept([chunk]);
    callback();
  }

  private accept(chunks: Buffer[]): void {
    this.pending = Buffer.concat([this.pending, ...chunks]);
    const { messages, terminated } = this.takeMessages();
    if (messages.length > 0) {
      const batch = Buffer.concat(messages);
      this.replies = this.replies
        .then(async () => {
          const reply = await this.engine.exec(batch);
          if (reply.length > 0) this.push(Buffer.from(reply));
        })
        .catch((error: unknown) => {
          this.destroy(error instanceof Error ? error : new Error(String(error)));
        });
    }
    // PGlite is one session that outlives this client: Terminate is not forwarded, the
    // stream just ends once the replies already asked for are delivered.
    if (terminated) void this.replies.then(() => this.push(null));
  }

  private takeMessages(): { messages: Buffer[]; terminated: boolean } {
    const messages: Buffer[] = [];
    let terminated = false;
    for (;;) {
      const header = this.started ? 5 : 4;
      if (this.pending.length < header) break;
      const length = this.started ? this.pending.readInt32BE(1) + 1 : this.pending.readInt32BE(0);
      if (this.pending.length < length) break;
      const message = this.pending.subarray(0, length);
      this.pending = this.pending.subarray(length);
      if (this.started && message[0] === TERMINATE) terminated = true;
      else messages.push(message);
      this.started = true;
    }
    return { messages, terminated };
  }
}
