import { randomUUID } from 'node:crypto';
import { LIVE_RUNS, RUN_LANE_PREPARED } from '../../../src/storage/store/repositories/run-lane-repository';
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from '../../support/test-database';
import { indexScansFor, planScans } from './plan-indexes';

const HAS_QUEUED = RUN_LANE_PREPARED.find((statement) =>
  statement.text.includes("status = 'queued' LIMIT 1"),
);
const CLAIM_NEXT = RUN_LANE_PREPARED.find((statement) => statement.text.startsWith('UPDATE runs'));

/** Finished runs, as a workspace's history holds them (no workspace behind them: triggers off). */
const FINISHED_RUNS = `INSERT INTO runs (workspace_id, agent_id, conversation_id, status, created_at)
  SELECT gen_random_uuid(), gen_random_uuid(), gen_random_uuid(), 'succeeded', now() - n * interval '1 second'
  FROM generate_series(1, 3000) AS n`;

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
    db.database.store.transaction(async (tx) =>
      (await indexScansFor(tx, sql, params)).map((scan) => scan.index),
    );

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

  it('T3: the claim keeps to its lane’s index when the statistics say its statuses are rare', async () => {
    if (CLAIM_NEXT === undefined) throw new Error('no claim among the lane’s statements');
    const [agent, conversation] = [randomUUID(), randomUUID()];
    const indexes = await db.database.store.transaction(async (tx) => {
      await tx.query('SET LOCAL session_replication_role = replica');
      await tx.query(FINISHED_RUNS);
      await tx.query('ANALYZE runs');
      // The plan a prepared claim keeps on a connection: made once, for any lane.
      await tx.query('SET LOCAL plan_cache_mode = force_generic_plan');
      await tx.query(`PREPARE claim_plan(uuid, uuid, timestamptz) AS ${CLAIM_NEXT.text}`);
      const scans = await planScans(tx, `EXECUTE claim_plan('${agent}', '${conversation}', now())`);
      await tx.query('DEALLOCATE claim_plan');
      await tx.query('DELETE FROM runs');
      return scans.map((scan) => scan.index);
    });
    // Its two reads by the lane's index; the run it takes by its id.
    expect(indexes.filter((name) => name === 'ix_runs_lane')).toHaveLength(2);
    expect(indexes.every((name) => ['ix_runs_lane', 'uq_runs_id_workspace', 'pk_runs'].includes(name))).toBe(
      true,
    );
  });

  it('T3: the live runs are listed by age through ix_runs_live, as recovery and the watchdog list them', async () => {
    expect(
      await indexesFor(
        `SELECT id FROM runs WHERE status IN ('queued', 'running') AND ${LIVE_RUNS} ORDER BY created_at, seq`,
        [],
      ),
    ).toEqual(['ix_runs_live']);
    expect(
      await indexesFor(
        `SELECT id FROM runs WHERE status = 'running' AND ${LIVE_RUNS} ORDER BY created_at, seq`,
        [],
      ),
    ).toEqual(['ix_runs_live']);
  });
});
