/**
 * T4: acks go first. Counts the inbox writes an ack is waiting for in this process; routing
 * asks for a moment without one before each batch, so that under a burst the CPU and the
 * database serve the acks (Slack gives up on an event after 3 s) and routing catches up in the
 * gaps and after. It waits at most `maxMs`: routing is never stopped by steady traffic, only
 * slowed, and a lull of a few milliseconds between events is enough.
 */
export class AckGate {
  private inFlight = 0;
  private waiters: (() => void)[] = [];

  constructor(private readonly maxMs: number) {}

  /** Runs one ack's write, counted while it is under way. */
  async write<T>(work: () => Promise<T>): Promise<T> {
    this.inFlight += 1;
    try {
      return await work();
    } finally {
      this.inFlight -= 1;
      if (this.inFlight === 0) this.release();
    }
  }

  /** Whether an ack is waiting for its write now. */
  get busy(): boolean {
    return this.inFlight > 0;
  }

  /** Resolves once no ack is waiting for its write, or after `maxMs`, whichever comes first. */
  quiet(): Promise<void> {
    if (this.inFlight === 0 || this.maxMs <= 0) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((waiter) => waiter !== done);
        resolve();
      }, this.maxMs);
      timer.unref();
      this.waiters.push(done);
    });
  }

  private release(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const waiter of waiters) waiter();
  }
}
