import { ServiceUnavailableError } from '../../../src/core/errors';
import { RetryingStore } from '../../../src/core/outage/retrying-store';
import type { SqlStoreTx } from '../../../src/storage/store/sql-store';
import { openTestDatabase, type TestDatabase } from '../../support/test-database';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * T2: a server's shutdown (`pg_ctl stop -m fast`, a restart, any end of a session) that reaches
 * a transaction while it waits between two of its messages. The driver reads the server's FATAL
 * message and TypeORM releases the transaction's query runner at once, so neither its next
 * statement nor its COMMIT is ever sent: nothing of it was stored, and the store reports the
 * database as away (not "may have been stored"), so `RetryingStore` runs it again. Before, the
 * next statement failed with TypeORM's "Query runner already released" (not taken for an
 * outage) and the COMMIT as possibly stored: neither was retried, and an outbox call whose
 * `markSending` or `markSent` the restart caught stayed `pending` or `sending` for good (the
 * Slack outage test in `engine/service-outages.test.ts` then waited in vain).
 */
describe('T2: a transaction whose connection ends between its messages (PostgreSQL)', () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await openTestDatabase('postgres');
  });
  afterAll(() => db.dispose());

  /** Ends the session of `tx`'s connection from another one, as `pg_ctl stop -m fast` does to each. */
  const endSessionOf = async (tx: SqlStoreTx) => {
    const [own] = await tx.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    // On another pooled connection (not a store transaction: they do not nest). Waits (up to
    // 5 s) until that backend has exited: its FATAL message is on its way.
    const [ended]: { ended: boolean }[] = await db.database.dataSource.query(
      'SELECT pg_terminate_backend($1, 5000) AS ended',
      [own?.pid],
    );
    expect(ended?.ended).toBe(true);
    // The client reads the backend's FATAL message and ends the connection (TypeORM releases the runner).
    await sleep(100);
  };

  const stored = async (slug: string) =>
    (await db.database.store.transaction((tx) => tx.workspaces.list())).filter((w) => w.slug === slug).length;

  it('T2: a statement after the session ended is unavailability, not done: the transaction runs again, once', async () => {
    let tries = 0;
    await RetryingStore.over(db.database.store).transaction(async (tx) => {
      tries += 1;
      await tx.workspaces.insert({ slug: 'lost-before-statement', name: 'x' });
      if (tries === 1) await endSessionOf(tx as SqlStoreTx);
      await tx.workspaces.insert({ slug: 'lost-before-statement-2', name: 'x' });
    });
    expect(tries).toBe(2);
    expect([await stored('lost-before-statement'), await stored('lost-before-statement-2')]).toEqual([1, 1]);
  });

  it('T2: a COMMIT after the session ended was never sent, so nothing was stored: the transaction runs again, once', async () => {
    let tries = 0;
    await RetryingStore.over(db.database.store).transaction(async (tx) => {
      tries += 1;
      await tx.workspaces.insert({ slug: 'lost-before-commit', name: 'x' });
      if (tries === 1) await endSessionOf(tx as SqlStoreTx);
    });
    expect(tries).toBe(2);
    expect(await stored('lost-before-commit')).toBe(1);
  });

  it('T2: without the retry, the caller is told the database was away and nothing was stored', async () => {
    const failure = await db.database.store
      .transaction(async (tx) => {
        await tx.workspaces.insert({ slug: 'lost-not-retried', name: 'x' });
        await endSessionOf(tx);
      })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ServiceUnavailableError);
    expect(failure).toMatchObject({ service: 'database', maybeDone: false });
    expect(await stored('lost-not-retried')).toBe(0);
  });
});
