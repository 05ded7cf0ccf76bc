import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from '../../support/test-database';
import { indexScansFor } from './plan-indexes';

const TABLES = ['conversations', 'messages', 'runs'] as const;

/**
 * T3: a reply writes a conversation, two messages and a run three times (never HOT: status is
 * indexed), each time an entry into every index of the table: one index led by the id, the key
 * (id, workspace_id), serves both the look-ups by id and the tenant-scoped foreign keys (A2).
 */
describe.each(DATABASE_KINDS)('the keys of what a reply writes on %s', (kind) => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await openTestDatabase(kind);
  });
  afterAll(() => db.dispose());

  it.each(TABLES)(
    'T3, A2: %s has one index led by its id, its key, and every key naming it names the workspace',
    async (table) => {
      const { ledById, byId, references } = await db.database.store.transaction(async (tx) => ({
        ledById: await tx.query<{ name: string; columns: string }>(
          `SELECT i.relname AS name, pg_get_indexdef(x.indexrelid) AS columns
           FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid
           JOIN pg_attribute a ON a.attrelid = x.indrelid AND a.attnum = x.indkey[0]
          WHERE x.indrelid = $1::regclass AND a.attname = 'id'`,
          [table],
        ),
        byId: await indexScansFor(tx, `SELECT * FROM ${table} WHERE id = $1`, [
          '00000000-0000-4000-8000-000000000000',
        ]),
        references: await tx.query<{ name: string; columns: number }>(
          `SELECT conname AS name, array_length(confkey, 1) AS columns FROM pg_constraint
          WHERE contype = 'f' AND confrelid = $1::regclass ORDER BY 1`,
          [table],
        ),
      }));
      expect(ledById).toEqual([
        { name: `pk_${table}`, columns: expect.stringMatching(/\(id, workspace_id\)$/) },
      ]);
      expect(byId.map((scan) => scan.index)).toEqual([`pk_${table}`]);
      expect(references.length).toBeGreaterThan(0);
      expect(references.filter((key) => key.columns !== 2)).toEqual([]);
    },
  );
});
