import { ServiceUnavailableError } from '../../../src/core/errors';
import type { PlatformSender } from '../../../src/core/outbox/delivery-error';
import { OutboxDeliverer } from '../../../src/core/outbox/outbox-deliverer';
import { silentLogger } from '../../../src/core/ports/logger';
import type { OutboxRepository } from '../../../src/core/ports/outbox-store';
import type { Store, StoreTx } from '../../../src/core/ports/store';
import type { SqlStoreTx } from '../../../src/storage/store/sql-store';
import { waitFor } from '../../support/engine-harness';
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from '../../support/test-database';

/**
 * T2, P7: an outbox write whose COMMIT was in flight when the connection dropped may or may not
 * have been stored (`ServiceUnavailableError` with `maybeDone`), so `RetryingStore` does not run
 * it again. The deliverer reads the row back once the database answers: a call is neither left
 * unsent while the process runs nor sent twice. Before, a `sending` mark caught so threw out of
 * the delivery: its row stayed `pending` or `sending` until the next start (the Slack outage
 * test in `engine/service-outages.test.ts` then waited in vain for an `agents.sessions.setStatus`).
 */

/** A platform that answers every call (`ts-1`, `ts-2`…), counting them. */
class CountingPlatform implements PlatformSender {
  readonly calls: string[] = [];
  async send(kind: string): Promise<string | null> {
    this.calls.push(kind);
    return `ts-${this.calls.length}`;
  }
}

/**
 * The real store, but the first transaction that calls `method` of the outbox gets the error of a
 * connection lost during its COMMIT: after the transaction was stored (`stored: true`), or with
 * nothing of it stored. `meanwhile` runs before that error is thrown (another process's write).
 */
function commitLostAt(
  store: Store,
  method: keyof OutboxRepository,
  stored: boolean,
  meanwhile: () => Promise<void> = async () => {},
): Store {
  let armed = true;
  const transaction = async <T>(work: (tx: StoreTx) => Promise<T>): Promise<T> => {
    if (!armed) return store.transaction(work);
    let hit = false;
    const watched = (tx: StoreTx): StoreTx => {
      const outbox = new Proxy(tx.outbox, {
        get(target, key) {
          if (key === method) hit = true;
          return Reflect.get(target, key);
        },
      });
      return new Proxy(tx, { get: (target, key) => (key === 'outbox' ? outbox : Reflect.get(target, key)) });
    };
    try {
      const result = await store.transaction(async (tx) => {
        const done = await work(watched(tx));
        if (hit && !stored) throw new Error('rolled back: the COMMIT never reached the server');
        return done;
      });
      if (!hit) return result;
    } catch (error) {
      if (!hit) throw error;
    }
    armed = false;
    await meanwhile();
    throw new ServiceUnavailableError(
      'database',
      'The database could not be reached: Connection terminated unexpectedly',
      true,
    );
  };
  return {
    transaction,
    inWorkspace: (workspaceId, work) => store.inWorkspace(workspaceId, work),
    addToInbox: (entry) => store.addToInbox(entry),
    warm: () => store.warm(),
    close: () => store.close(),
  };
}

describe.each(DATABASE_KINDS)('T2, P7: an outbox write whose COMMIT outcome is unknown, on %s', (kind) => {
  let db: TestDatabase;
  let workspaceId: string;
  let n = 0;
  /** A lane of its own for each test. */
  let lane: string;

  beforeAll(async () => {
    db = await openTestDatabase(kind);
    workspaceId = (
      await db.database.store.transaction((tx) =>
        tx.workspaces.insert({ slug: 'outbox-commit', name: 'Outbox' }),
      )
    ).id;
  });
  afterAll(() => db.dispose());
  beforeEach(() => {
    n += 1;
    lane = `C1:${n}`;
  });

  const rowsOf = (laneKey: string) =>
    db.database.store.transaction((tx) =>
      (tx as SqlStoreTx).query<{ status: string; platform_ref: string | null }>(
        'SELECT status, platform_ref FROM outbox WHERE lane = $1 ORDER BY seq',
        [laneKey],
      ),
    );

  const delivererOver = (store: Store, sender: PlatformSender) =>
    new OutboxDeliverer({ store, platform: 'slack', sender, logger: silentLogger });

  it.each([
    ['stored', true],
    ['not stored', false],
  ])(
    'T2, P7: the `sending` mark %s, its COMMIT lost: the call goes out once, recorded as sent',
    async (_, stored) => {
      const platform = new CountingPlatform();
      const deliverer = delivererOver(commitLostAt(db.database.store, 'markSending', stored), platform);
      await expect(
        deliverer.deliver({ workspaceId, lane }, 'chat.postMessage', { text: 'hi' }),
      ).resolves.toBe('ts-1');
      expect(platform.calls).toEqual(['chat.postMessage']);
      expect(await rowsOf(lane)).toEqual([{ status: 'sent', platform_ref: 'ts-1' }]);
    },
  );

  it('T2, P7: the mark not stored and another deliverer’s landing meanwhile: this one does not send it (never twice), its outcome is this delivery’s', async () => {
    const platform = new CountingPlatform();
    const taken: { id?: string | undefined } = {};
    const other = async () => {
      const rows = await db.database.store.transaction((tx) => tx.outbox.unfinished('slack'));
      const row = rows.find((r) => r.lane === lane);
      await db.database.store.transaction((tx) => tx.outbox.markSending(row?.id ?? ''));
      taken.id = row?.id;
    };
    const deliverer = delivererOver(commitLostAt(db.database.store, 'markSending', false, other), platform);
    const outcome = deliverer.deliver({ workspaceId, lane }, 'chat.postMessage', { text: 'hi' }).then(
      (ref) => ({ ref }),
      (error: unknown) => ({ error }),
    );
    await waitFor(async () => taken.id !== undefined);
    // P7, T2, A12: the other deliverer's to send; this one waits for its outcome.
    expect(await rowsOf(lane)).toEqual([{ status: 'sending', platform_ref: null }]);
    await db.database.store.transaction((tx) => tx.outbox.markSent(taken.id ?? '', 'ts-other'));
    expect(await outcome).toEqual({ ref: 'ts-other' });
    expect(platform.calls).toEqual([]);
    expect(await rowsOf(lane)).toEqual([{ status: 'sent', platform_ref: 'ts-other' }]);
  });

  it.each([
    ['stored', true],
    ['not stored', false],
  ])('T2, P7: the call’s row %s, its COMMIT lost: one row, the call goes out once', async (_, stored) => {
    const platform = new CountingPlatform();
    const deliverer = delivererOver(commitLostAt(db.database.store, 'add', stored), platform);
    await expect(deliverer.deliver({ workspaceId, lane }, 'chat.update', { text: 'hi' })).resolves.toBe(
      'ts-1',
    );
    expect(platform.calls).toEqual(['chat.update']);
    expect(await rowsOf(lane)).toEqual([{ status: 'sent', platform_ref: 'ts-1' }]);
  });

  it.each([
    ['stored', true],
    ['not stored', false],
  ])(
    'T2, P7: delivered, its "sent" %s with the COMMIT lost: recorded as sent, not sent again',
    async (_, stored) => {
      const platform = new CountingPlatform();
      const deliverer = delivererOver(commitLostAt(db.database.store, 'markSent', stored), platform);
      await expect(deliverer.deliver({ workspaceId, lane }, 'chat.update', { text: 'hi' })).resolves.toBe(
        'ts-1',
      );
      expect(platform.calls).toEqual(['chat.update']);
      expect(await rowsOf(lane)).toEqual([{ status: 'sent', platform_ref: 'ts-1' }]);
    },
  );
});
