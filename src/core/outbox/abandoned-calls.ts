import type { Platform } from '../model/platform';
import type { Logger } from '../ports/logger';
import type { Store } from '../ports/store';
import { DEFAULT_ABANDON_AFTER_MS } from './outbox-options';

const INTERRUPTED = 'interrupted while sending: not sent again, so it is never posted twice';

/**
 * P7, T2, A12: calls left `sending` by a process that died mid-send are failed, never sent
 * again. Several workers share the outbox, so a mark is its sender's death only once it is older
 * than any live sender holds one (`afterMs`, by the database's clock): a call another worker is
 * sending right now is left to it. Marks too young to judge are looked at again after that time,
 * until none is left.
 */
export class AbandonedCalls {
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(
    private readonly store: Store,
    private readonly platform: Platform,
    private readonly logger: Logger,
    private readonly afterMs: number = DEFAULT_ABANDON_AFTER_MS,
  ) {}

  /** Fails the calls whose sender died; returns how many. */
  failNow(): Promise<number> {
    return this.store.transaction((tx) => tx.outbox.failAbandoned(this.platform, this.afterMs, INTERRUPTED));
  }

  /** Some calls were `sending` under marks too young to judge: looks again once they are old enough. */
  lookAgainLater(): void {
    if (this.timer !== null || this.stopped) return;
    this.timer = setTimeout(() => void this.lookAgain(), this.afterMs);
    this.timer.unref();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }

  private async lookAgain(): Promise<void> {
    try {
      const abandoned = await this.failNow();
      if (abandoned > 0) this.logger.info({ abandoned }, 'outgoing calls of a stopped process failed');
      const left = await this.store.transaction((tx) => tx.outbox.unfinished(this.platform));
      this.timer = null;
      if (left.some((item) => item.status === 'sending')) this.lookAgainLater();
    } catch (error) {
      this.timer = null;
      this.logger.warn({ err: String(error) }, 'could not look for calls of a stopped process');
    }
  }
}
