/**
 * T3: a bound on the agents' processes running at once (CPU), separate from the
 * engine's turn concurrency. First come, first served: a waiter is never overtaken.
 */
export class FairSemaphore {
  private running = 0;
  private readonly waiting: { grant: () => void; reject: (reason: unknown) => void }[] = [];

  constructor(readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1)
      throw new Error(`a semaphore needs a limit of at least 1, got ${limit}`);
  }

  get active(): number {
    return this.running;
  }

  get queued(): number {
    return this.waiting.length;
  }

  /** Waits for a slot; the returned function gives it back (once). Rejects when `signal` aborts first. */
  acquire(signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (this.running < this.limit && this.waiting.length === 0) {
      this.running += 1;
      return Promise.resolve(this.releaser());
    }
    return new Promise((resolve, reject) => {
      const entry = {
        grant: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve(this.releaser());
        },
        reject,
      };
      const onAbort = () => {
        const at = this.waiting.indexOf(entry);
        if (at >= 0) this.waiting.splice(at, 1);
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(entry);
    });
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      if (next === undefined) this.running -= 1;
      else next.grant(); // the slot passes straight to the next waiter
    };
  }
}
