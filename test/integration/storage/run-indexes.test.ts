import { randomUUID } from 'node:crypto';
import { RUN_LANE_PREPARED } from '../../../src/storage/store/repositories/run-lane-repository';
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from '../../support/test-database';

interface PlanNode {
  'Index Name'?: string;
  Plans?: PlanNode[];
}

const indexesOf = (node: PlanNode): string[] => [
  ...(node['Index Name'] === undefined ? [] : [node['Index Name']]),
  ...(node.Plans ?? []).flatMap(indexesOf),
];

const HAS_QUEUED = RUN_LANE_PREPARED.find((statement) =>
  statement.text.includes("status = 'queued' LIMIT 1"),
);

/**
 * T3: a run is written three times on its way (stored, claimed, finished: status is indexed, so
 * never a HOT update), each time into every index of `runs`; one index serves both its lane's
 * reads (agent and conversation) and the reads of a conversation's runs (its running runs, the
 * cascade of its deletion).
 */
describe.each(DATABASE_KINDS)('the runs’ indexes on %s', (kind) => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await openTestDatabase(kind);
  });
  afterAll(() => db.dispose());

  /** The indexes the planner takes for `sql`, a table scan being ruled out (the table is empty). */
  const indexesFor = (sql: string, params: unknown[]) =>
    db.database.store.transaction(async (tx) => {
      await tx.query('SET LOCAL enable_seqscan = off');
      await tx.query('SET LOCAL enable_bitmapscan = off');
      const [row] = await tx.query<{ 'QUERY PLAN': unknown }>(`EXPLAIN (FORMAT JSON) ${sql}`, params);
      const explained = row?.['QUERY PLAN'];
      const [{ Plan: plan }] = (typeof explained === 'string' ? JSON.parse(explained) : explained) as [
        { Plan: PlanNode },
      ];
      return indexesOf(plan);
    });

  it('T3: a lane’s reads and a conversation’s runs are found through ix_runs_lane', async () => {
    if (HAS_QUEUED === undefined) throw new Error('no lane check among the lane’s statements');
    const [agent, conversation] = [randomUUID(), randomUUID()];
    const lane = HAS_QUEUED.text.replace('$1', `'${agent}'::uuid`).replace('$2', `'${conversation}'::uuid`);
    expect(await indexesFor(lane, [])).toEqual(['ix_runs_lane']);
    expect(
      await indexesFor("SELECT id FROM runs WHERE conversation_id = $1 AND status = 'running'", [
        conversation,
      ]),
    ).toEqual(['ix_runs_lane']);
    expect(await indexesFor('DELETE FROM runs WHERE conversation_id = $1', [conversation])).toEqual([
      'ix_runs_lane',
    ]);
  });
});
