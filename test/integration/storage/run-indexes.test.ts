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

/** Finished runs of five agents in 600 conversations; answers one agent and one conversation of them. */
const AGENTS_HISTORY = `WITH agents AS (SELECT array_agg(gen_random_uuid()) AS ids FROM generate_series(1, 5)),
  conversations AS (SELECT array_agg(gen_random_uuid()) AS ids FROM generate_series(1, 600)),
  made AS (
    INSERT INTO runs (workspace_id, agent_id, conversation_id, status, created_at)
    SELECT gen_random_uuid(), agents.ids[1 + n % 5], conversations.ids[1 + n % 600], 'succeeded',
      now() - n * interval '1 second'
    FROM generate_series(1, 3000) AS n, agents, conversations
    RETURNING agent_id, conversation_id)
  SELECT agent_id::text AS agent, conversation_id::text AS conversation FROM made LIMIT 1`;

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

  it('T3: a lane’s reads and a conversation’s runs are found through ix_runs_lane, with a history’s statistics', async () => {
    if (HAS_QUEUED === undefined) throw new Error('no lane check among the lane’s statements');
    const indexes = await db.database.store.transaction(async (tx) => {
      // A workspace's history, analyzed (as autovacuum, or PGlite's upkeep, leaves it): few
      // agents, many conversations. On an empty table every index costs the same, and which the
      // planner takes depends on whether the table was ever analyzed.
      await tx.query('SET LOCAL session_replication_role = replica');
      const [history] = await tx.query<{ agent: string; conversation: string }>(AGENTS_HISTORY);
      await tx.query('ANALYZE runs');
      const { agent, conversation } = history as { agent: string; conversation: string };
      // The plan the prepared check keeps on a connection: made once, for any lane.
      await tx.query('SET LOCAL plan_cache_mode = force_generic_plan');
      await tx.query(`PREPARE has_queued(uuid, uuid) AS ${HAS_QUEUED.text}`);
      const lane = await indexScansFor(tx, `EXECUTE has_queued('${agent}', '${conversation}')`, []);
      await tx.query('DEALLOCATE has_queued');
      const running = await indexScansFor(
        tx,
        "SELECT id FROM runs WHERE conversation_id = $1 AND status = 'running'",
        [conversation],
      );
      const deleted = await indexScansFor(tx, 'DELETE FROM runs WHERE conversation_id = $1', [conversation]);
      await tx.query('DELETE FROM runs');
      return [lane, running, deleted].map((scans) => scans.map((scan) => scan.index));
    });
    expect(indexes).toEqual([['ix_runs_lane'], ['ix_runs_lane'], ['ix_runs_lane']]);
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
