import { AppError, ConflictError } from '../../../src/core/errors';
import { openDatabase } from '../../../src/storage/database';
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from '../../support/test-database';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(DATABASE_KINDS)('store transactions on %s', (kind) => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await openTestDatabase(kind);
  });
  afterAll(() => db.dispose());

  const slugs = async () =>
    (await db.database.store.transaction((tx) => tx.workspaces.list())).map((w) => w.slug).sort();

  it('roll back everything when the work throws, and hand the error back unchanged', async () => {
    const boom = new Error('boom');
    await expect(
      db.database.store.transaction(async (tx) => {
        await tx.workspaces.insert({ slug: 'rolled-back', name: 'x' });
        throw boom;
      }),
    ).rejects.toBe(boom);
    expect(await slugs()).not.toContain('rolled-back');
  });

  it('keep two concurrent transactions apart when one of them fails', async () => {
    // On PGlite both would share one session if they ran interleaved: B's insert would be
    // rolled back with A, or A's would survive through B's commit.
    const store = db.database.store;
    const results = await Promise.allSettled([
      store.transaction(async (tx) => {
        await tx.workspaces.insert({ slug: 'concurrent-a', name: 'A' });
        await sleep(50);
        throw new Error('A fails');
      }),
      store.transaction(async (tx) => {
        await sleep(10);
        await tx.workspaces.insert({ slug: 'concurrent-b', name: 'B' });
      }),
    ]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'fulfilled']);
    const after = await slugs();
    expect(after).toContain('concurrent-b');
    expect(after).not.toContain('concurrent-a');
  });

  it('never let a workspace session’s role or setting leak into a concurrent system transaction', async () => {
    const store = db.database.store;
    const [mine, theirs] = await store.transaction(async (tx) => [
      await tx.workspaces.insert({ slug: 'leak-a', name: 'A' }),
      await tx.workspaces.insert({ slug: 'leak-b', name: 'B' }),
    ]);
    if (!mine || !theirs) throw new Error('workspaces missing');
    const [scoped, system] = await Promise.all([
      store.inWorkspace(mine.id, async (tx) => {
        await sleep(30);
        return (await tx.workspaces.list()).map((w) => w.slug);
      }),
      (async () => {
        await sleep(5);
        return store.transaction(async (tx) => (await tx.workspaces.list()).map((w) => w.slug));
      })(),
    ]);
    expect(scoped).toEqual(['leak-a']);
    expect(system).toEqual(expect.arrayContaining(['leak-a', 'leak-b']));
  });

  it('refuse a transaction opened inside another instead of deadlocking', async () => {
    const store = db.database.store;
    const error = await store
      .transaction(async () => store.transaction(async () => 'inner'))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('nested_transaction');
    // Once the outer transaction is over, the next one is fine.
    await expect(store.transaction(async () => 'after')).resolves.toBe('after');
  });

  it('report a unique violation as a ConflictError, and a failed statement aborts the transaction', async () => {
    const store = db.database.store;
    await store.transaction((tx) => tx.workspaces.insert({ slug: 'taken', name: 'x' }));
    const error = await store
      .transaction(async (tx) => {
        await tx.workspaces.insert({ slug: 'also-new', name: 'x' });
        await tx.workspaces.insert({ slug: 'taken', name: 'x' });
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConflictError);
    expect(await slugs()).not.toContain('also-new');
  });
});

describe.each(DATABASE_KINDS)('reopening a database on %s', (kind) => {
  it('finds what was written, with nothing left to migrate', async () => {
    const db = await openTestDatabase(kind);
    try {
      await db.database.store.transaction((tx) => tx.workspaces.insert({ slug: 'durable', name: 'D' }));
      await db.database.close();
      await db.database.close(); // idempotent
      const reopened = await openDatabase({ databaseUrl: db.databaseUrl, dbDir: db.dbDir ?? '' });
      try {
        expect(reopened.kind).toBe(kind);
        expect(await reopened.pendingMigrations()).toEqual([]);
        expect(await reopened.migrate()).toEqual([]);
        expect((await reopened.store.transaction((tx) => tx.workspaces.findBySlug('durable')))?.name).toBe(
          'D',
        );
      } finally {
        await reopened.store.close();
      }
    } finally {
      await db.dispose();
    }
  });
});
