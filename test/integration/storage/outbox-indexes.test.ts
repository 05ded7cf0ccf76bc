import { OUTBOX_BY_STATUS } from '../../../src/storage/store/repositories/outbox-repository';
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from '../../support/test-database';

interface PlanNode {
  'Index Name'?: string;
  Plans?: PlanNode[];
}

const indexesOf = (node: PlanNode): string[] => [
  ...(node['Index Name'] === undefined ? [] : [node['Index Name']]),
  ...(node.Plans ?? []).flatMap(indexesOf),
];

/** Each statement with arguments of its parameters' types. */
const ARGUMENTS: Record<keyof typeof OUTBOX_BY_STATUS, unknown[]> = {
  unfinished: ['slack'],
  failAbandoned: ['slack', 60_000, 'abandoned'],
  pruneFinished: ['slack', new Date('2026-12-01T00:00:00Z')],
};

/**
 * P7, T3: every call written to the outbox, and each change of its status (the mark `sent`:
 * status is indexed, so not a HOT update), writes an entry into each of its indexes: it keeps
 * only indexes its reads by status use.
 */
describe.each(DATABASE_KINDS)('the outbox’s indexes on %s', (kind) => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await openTestDatabase(kind);
  });
  afterAll(() => db.dispose());

  it('P7, T3: each index besides the key serves one of the reads by status', async () => {
    const used = new Set<string>();
    await db.database.store.transaction(async (tx) => {
      // With no rows a scan of the table would do: ask which index each read would take.
      await tx.query('SET LOCAL enable_seqscan = off');
      for (const [name, sql] of Object.entries(OUTBOX_BY_STATUS)) {
        const [row] = await tx.query<{ 'QUERY PLAN': unknown }>(
          `EXPLAIN (FORMAT JSON) ${sql}`,
          ARGUMENTS[name as keyof typeof OUTBOX_BY_STATUS],
        );
        const explained = row?.['QUERY PLAN'];
        const [{ Plan: plan }] = (typeof explained === 'string' ? JSON.parse(explained) : explained) as [
          { Plan: PlanNode },
        ];
        for (const index of indexesOf(plan)) used.add(index);
      }
    });
    const indexes = await db.database.dataSource.query<{ indexname: string }[]>(
      "SELECT indexname FROM pg_indexes WHERE tablename = 'outbox' AND indexname <> 'pk_outbox' ORDER BY indexname",
    );
    expect(indexes.map((row) => row.indexname).filter((index) => !used.has(index))).toEqual([]);
    expect(used.has('ix_outbox_lane')).toBe(true);
  });
});
