import { HOT_STATEMENTS } from '../../../src/storage/store/warm-connections';
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from '../../support/test-database';
import { type SeededWorkspace, seedWorkspace } from './workspace-fixture';

const CONNECTIONS = 10;

/**
 * T3: at an engine's start the store opens its PostgreSQL connections and prepares routing's
 * and a turn's statements on each, and keeps them: a burst right after a start, or after a lull,
 * meets connections ready for it. PGlite's one session has nothing to open.
 */
describe('T3: warming the store’s connections on PostgreSQL', () => {
  let db: TestDatabase;
  let acme: SeededWorkspace;

  beforeAll(async () => {
    db = await openTestDatabase('postgres');
    acme = await seedWorkspace(db.database.store, 'acme');
  });
  afterAll(() => db.dispose());

  const openConnections = async (): Promise<number> => {
    const [row] = await db.database.store.transaction((tx) =>
      tx.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_stat_activity
          WHERE datname = current_database() AND application_name = 'summon'`,
      ),
    );
    return row?.n ?? 0;
  };

  it('opens every connection of the pool and prepares the hot statements on each', async () => {
    await db.database.store.warm();
    expect(await openConnections()).toBe(CONNECTIONS);
    // Every connection at once, each held by its own transaction: each has every hot statement.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const seen: string[][] = [];
    const transactions = Array.from({ length: CONNECTIONS }, () =>
      db.database.store.transaction(async (tx) => {
        const rows = await tx.query<{ name: string }>('SELECT name FROM pg_prepared_statements');
        seen.push(rows.map((row) => row.name));
        if (seen.length === CONNECTIONS) release();
        await held;
      }),
    );
    await Promise.all(transactions);
    const hot = [...new Set(HOT_STATEMENTS.map((statement) => statement.name))].sort();
    for (const names of seen) expect(names.filter((name) => hot.includes(name)).sort()).toEqual(hot);
  });

  it('a warmed connection runs routing’s and a turn’s reads without preparing them again', async () => {
    await db.database.store.warm();
    const reads = await Promise.all(
      Array.from({ length: CONNECTIONS }, () =>
        db.database.store.transaction((tx) =>
          tx.routingReads.read({
            platform: 'slack',
            workspace: { platform: 'slack', externalId: 'T-acme' },
            channelId: 'C-none',
            thread: 'C-none:1.0',
            senderId: 'U-acme',
            mentioned: ['acme'],
          }),
        ),
      ),
    );
    // A PREPARE of a statement the session already had would have failed (42P05).
    for (const read of reads) expect(read.workspace?.id).toBe(acme.workspaceId);
  });

  it('warming again, or with connections already open, prepares nothing twice and keeps the pool’s size', async () => {
    await db.database.store.warm();
    await db.database.store.warm();
    expect(await openConnections()).toBe(CONNECTIONS);
  });

  it('a connection the server ended is replaced by the next warming, prepared as the others', async () => {
    await db.database.store.warm();
    await db.database.store.transaction((tx) =>
      tx.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
          WHERE datname = current_database() AND application_name = 'summon' AND pid <> pg_backend_pid()`,
      ),
    );
    // The pool learns of the ended sessions as their sockets close.
    await new Promise((resolve) => setTimeout(resolve, 200));
    await db.database.store.warm();
    expect(await openConnections()).toBe(CONNECTIONS);
    const [row] = await db.database.store.transaction((tx) =>
      tx.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_prepared_statements'),
    );
    expect(row?.n).toBeGreaterThanOrEqual(new Set(HOT_STATEMENTS.map((s) => s.name)).size);
  });
});

describe.each(DATABASE_KINDS.filter((kind) => kind === 'pglite'))('T3: warming on %s', (kind) => {
  it('has nothing to open and resolves, the store working as before', async () => {
    const db = await openTestDatabase(kind);
    try {
      await db.database.store.warm();
      const acme = await seedWorkspace(db.database.store, 'acme');
      expect(acme.workspaceId).toBeTruthy();
    } finally {
      await db.dispose();
    }
  });
});
