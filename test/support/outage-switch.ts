import { ServiceUnavailableError } from '../../src/core/errors';
import type { Store, StoreTx } from '../../src/core/ports/store';

/**
 * T2: the real store behind a switch. While it is down, every transaction fails at once with
 * the error the store gives while PostgreSQL restarts (`ServiceUnavailableError`, the
 * connection refused, nothing of the transaction stored); once it is up, they reach the store
 * again. `warm` and `close` pass through, and `addToInbox` too unless `inbox` is set (the
 * ingest's write then fails as the transactions do). `refused` counts the calls turned away,
 * so a test can tell a caller tried, and waits.
 */
export class OutageSwitch {
  readonly store: Store;
  refused = 0;
  private away = false;

  constructor(inner: Store, options: { inbox?: boolean } = {}) {
    const reach = <T>(work: () => Promise<T>): Promise<T> => {
      if (!this.away) return work();
      this.refused++;
      return Promise.reject(
        new ServiceUnavailableError(
          'database',
          'The database could not be reached: connect ECONNREFUSED 127.0.0.1:5432',
          false,
        ),
      );
    };
    this.store = {
      transaction: <T>(work: (tx: StoreTx) => Promise<T>) => reach(() => inner.transaction(work)),
      inWorkspace: <T>(workspaceId: string, work: (tx: StoreTx) => Promise<T>) =>
        reach(() => inner.inWorkspace(workspaceId, work)),
      addToInbox: (entry) => (options.inbox ? reach(() => inner.addToInbox(entry)) : inner.addToInbox(entry)),
      warm: () => inner.warm(),
      close: () => inner.close(),
    };
  }

  /** The database goes away (a restart begins). */
  down(): void {
    this.away = true;
  }

  /** The database is back. */
  up(): void {
    this.away = false;
  }
}

/**
 * How a call made during an outage has come out so far: still `pending` (it waits), `done`, or
 * the error it failed with. Read it after the outage has been seen to turn the call away.
 */
export function outcomeOf(call: Promise<unknown>): { readonly now: 'pending' | 'done' | Error } {
  const outcome: { now: 'pending' | 'done' | Error } = { now: 'pending' };
  call.then(
    () => {
      outcome.now = 'done';
    },
    (error: unknown) => {
      outcome.now = error instanceof Error ? error : new Error(String(error));
    },
  );
  return outcome;
}
