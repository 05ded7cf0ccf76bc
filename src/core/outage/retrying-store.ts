import type { InboxEntry } from '../model/inbox';
import type { Store, StoreTx } from '../ports/store';
import type { OutageWatch } from './outage-watch';
import { type OutageBackoff, retryWhileUnavailable } from './retry-while-unavailable';

/**
 * T2, A12: the store as the engine and the outbox use it. A transaction that could not reach
 * the database (refused, dropped before its COMMIT: rolled back, nothing of it stored) is run
 * again, with backoff, once the database is back, so a restart of seconds delays work instead
 * of throwing away a finished answer. A transaction whose COMMIT was in flight when the
 * connection dropped may have been stored: it is not repeated, and its error goes to the caller.
 *
 * `addToInbox` is not retried: a front end waits on it before it acknowledges, and an event
 * it could not store is not acknowledged, so the platform delivers it again.
 */
export class RetryingStore implements Store {
  private constructor(
    private readonly inner: Store,
    private readonly watch: OutageWatch | undefined,
    private readonly backoff: OutageBackoff | undefined,
  ) {}

  /** `store`, retrying while the database is away; a store that already retries is returned as it is. */
  static over(store: Store, watch?: OutageWatch, backoff?: OutageBackoff): Store {
    return store instanceof RetryingStore ? store : new RetryingStore(store, watch, backoff);
  }

  transaction<T>(work: (tx: StoreTx) => Promise<T>): Promise<T> {
    return this.retried(() => this.inner.transaction(work));
  }

  inWorkspace<T>(workspaceId: string, work: (tx: StoreTx) => Promise<T>): Promise<T> {
    return this.retried(() => this.inner.inWorkspace(workspaceId, work));
  }

  async addToInbox(entry: InboxEntry): Promise<boolean> {
    const stored = await this.inner.addToInbox(entry);
    this.watch?.reached('database');
    return stored;
  }

  warm(): Promise<void> {
    return this.inner.warm();
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  private async retried<T>(work: () => Promise<T>): Promise<T> {
    const result = await retryWhileUnavailable(work, {
      watch: this.watch,
      ...(this.backoff === undefined ? {} : { backoff: this.backoff }),
    });
    this.watch?.reached('database');
    return result;
  }
}
