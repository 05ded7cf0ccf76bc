import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from '../../support/test-database';

/**
 * Test support: a disposed test database comes back to the next test of the file as a fresh
 * copy of the template would be, or not at all. Which database a test got is told by the server
 * (PostgreSQL: the database's name; PGlite: the start of its engine), never by reading its URL
 * or directory, which would keep it from being reused.
 */
const identity = async (db: TestDatabase): Promise<string> => {
  const [row] = (await db.database.dataSource.query(
    'SELECT current_database() AS name, pg_postmaster_start_time()::text AS started',
  )) as { name: string; started: string }[];
  return `${row?.name} ${row?.started}`;
};

const workspaceSlugs = async (db: TestDatabase): Promise<string[]> =>
  (await db.database.store.transaction((tx) => tx.workspaces.list())).map((w) => w.slug);

const nextInviteSeq = async (db: TestDatabase): Promise<string> => {
  const [row] = (await db.database.dataSource.query(
    "SELECT nextval('member_invites_seq_seq')::text AS seq",
  )) as {
    seq: string;
  }[];
  return row?.seq ?? 'none';
};

describe.each(DATABASE_KINDS)('test databases kept between tests on %s', (kind) => {
  it('a reused database has none of the last test’s rows, and its sequences start again', async () => {
    const first = await openTestDatabase(kind);
    const used = await identity(first);
    await first.database.store.transaction((tx) => tx.workspaces.insert({ slug: 'left-behind', name: 'x' }));
    await nextInviteSeq(first);
    expect(await nextInviteSeq(first)).toBe('2');
    await first.dispose();

    const second = await openTestDatabase(kind);
    try {
      expect(await identity(second)).toBe(used);
      expect(await workspaceSlugs(second)).toEqual([]);
      expect(await nextInviteSeq(second)).toBe('1');
      expect(await second.database.pendingMigrations()).toEqual([]);
    } finally {
      await second.dispose();
    }
  });

  it('a database whose schema a test changed is not reused', async () => {
    const first = await openTestDatabase(kind);
    const changed = await identity(first);
    await first.database.dataSource.query('ALTER TABLE workspaces ADD COLUMN left_behind integer');
    await first.dispose();

    const second = await openTestDatabase(kind);
    try {
      expect(await identity(second)).not.toBe(changed);
      const columns = (await second.database.dataSource.query(
        "SELECT column_name FROM information_schema.columns WHERE table_name = 'workspaces' AND column_name = 'left_behind'",
      )) as unknown[];
      expect(columns).toEqual([]);
    } finally {
      await second.dispose();
    }
  });

  it('a database whose URL or directory its test read (another connection may still use it) is not reused', async () => {
    const first = await openTestDatabase(kind);
    const shared = await identity(first);
    expect(first.databaseUrl ?? first.dbDir).toBeTruthy();
    await first.dispose();

    const second = await openTestDatabase(kind);
    try {
      expect(await identity(second)).not.toBe(shared);
    } finally {
      await second.dispose();
    }
  });
});
