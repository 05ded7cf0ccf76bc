/** A queue that callbacks push into and one consumer reads with `for await`. */
export class EventQueue<T> implements AsyncIterable<T> {
  private readonly items: T[] = [];
  private closed = false;
  private wake: (() => void) | undefined;

  push(item: T): void {
    if (this.closed) return;
    this.items.push(item);
    this.notify();
  }

  end(): void {
    this.closed = true;
    this.notify();
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    while (true) {
      const item = this.items.shift();
      if (item !== undefined) {
        yield item;
        continue;
      }
      if (this.closed) return;
      await new Promise<void>((resolve) => {
        this.wake = resolve;
      });
    }
  }
}
