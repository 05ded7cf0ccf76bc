import { CallWithdrawn } from './delivery-error';

/**
 * P7, P9 (decision): how many of a platform's calls are on their way (stored and being sent,
 * or retried), and a sign of life's wait for room among them. While the platform is backed up
 * (`room` calls on their way), a sign of life waits; once its turn ends it is withdrawn, so the
 * more calls are backed up the fewer are added, where each slow turn would otherwise add its
 * card, the card's last edit and its session's two statuses.
 */
export class CallsOnTheirWay {
  private count = 0;
  /** Signs of life waiting for room, first come first served. */
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly room: number) {}

  /**
   * Counts `call` among those on their way while it runs (stored, sent, retried); a sign of
   * life (`withdrawn`) first waits for room, and rejects with `CallWithdrawn` if its turn ends first.
   */
  async carry<T>(call: () => Promise<T>, withdrawn?: AbortSignal): Promise<T> {
    if (withdrawn === undefined) this.count += 1;
    else await this.enterWhenRoom(withdrawn);
    try {
      return await call();
    } finally {
      this.count -= 1;
      this.waiting.shift()?.();
    }
  }

  private async enterWhenRoom(withdrawn: AbortSignal): Promise<void> {
    while (!withdrawn.aborted && this.count >= this.room) await this.roomOrWithdrawn(withdrawn);
    if (withdrawn.aborted) {
      // The room it was woken for goes to the next one waiting.
      if (this.count < this.room) this.waiting.shift()?.();
      throw new CallWithdrawn();
    }
    this.count += 1;
  }

  private roomOrWithdrawn(withdrawn: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const wake = () => {
        withdrawn.removeEventListener('abort', onAbort);
        resolve();
      };
      const onAbort = () => {
        const at = this.waiting.indexOf(wake);
        if (at >= 0) this.waiting.splice(at, 1);
        resolve();
      };
      this.waiting.push(wake);
      withdrawn.addEventListener('abort', onAbort, { once: true });
    });
  }
}
