import { DeliveryStopped } from './delivery-error';

/**
 * P7, T2: a deliverer's stop. Waits that are the deliverer's own (a retry's backoff or
 * Retry-After, a look at a call another deliverer holds) end at once and throw
 * `DeliveryStopped`; requests are not cut short.
 */
export class OutboxStop {
  private stopped = false;
  private readonly wakers = new Set<() => void>();

  get requested(): boolean {
    return this.stopped;
  }

  begin(): void {
    this.stopped = true;
    for (const wake of [...this.wakers]) wake();
  }

  /** Throws `DeliveryStopped` once the stop has begun. */
  check(): void {
    if (this.stopped) throw new DeliveryStopped();
  }

  /** A timer the stop clears (so a stopped process keeps no backoff of up to 30 s alive). */
  timer(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timeout);
        this.wakers.delete(done);
        resolve();
      };
      const timeout = setTimeout(done, ms);
      this.wakers.add(done);
    });
  }

  /** `sleep(ms)`, ended early by the stop; then `check`. */
  async pause(sleep: (ms: number) => Promise<void>, ms: number): Promise<void> {
    this.check();
    let wake = () => {};
    const woken = new Promise<void>((resolve) => {
      wake = () => {
        this.wakers.delete(wake);
        resolve();
      };
    });
    this.wakers.add(wake);
    try {
      await Promise.race([sleep(ms), woken]);
    } finally {
      this.wakers.delete(wake);
    }
    this.check();
  }
}
