interface Waiter {
  resolve: (at: bigint) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

/** Round trips waiting for their end, by key; each fails after `timeoutMs`. */
export class Waiters {
  private readonly waiting = new Map<string, Waiter>();

  constructor(private readonly timeoutMs: number) {}

  /** Register before starting the round trip, so an end seen early is not missed. */
  expect(key: string): Promise<bigint> {
    if (this.waiting.has(key)) throw new Error(`already waiting for ${key}`);
    return new Promise<bigint>((resolve, reject) => {
      const timer = setTimeout(
        () => this.fail(key, new Error(`no answer for ${key} within ${this.timeoutMs} ms`)),
        this.timeoutMs,
      );
      this.waiting.set(key, { resolve, reject, timer });
    });
  }

  /** Ends the round trip at `at`; false when nothing waited for `key`. */
  settle(key: string, at: bigint): boolean {
    const waiter = this.take(key);
    waiter?.resolve(at);
    return waiter !== undefined;
  }

  fail(key: string, error: Error): void {
    this.take(key)?.reject(error);
  }

  get size(): number {
    return this.waiting.size;
  }

  private take(key: string): Waiter | undefined {
    const waiter = this.waiting.get(key);
    if (waiter === undefined) return undefined;
    clearTimeout(waiter.timer);
    this.waiting.delete(key);
    return waiter;
  }
}
