import { RECENT_FOR_AGENTS } from '../../../src/storage/store/repositories/run-repository';
import { USAGE_SPENT } from '../../../src/storage/store/repositories/usage-repository';
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from '../../support/test-database';
import { indexScansFor } from './plan-indexes';
import { type SeededWorkspace, seedWorkspace } from './workspace-fixture';

/**
 * T3: every write of a run (stored, claimed, finished: never HOT, status is indexed) writes an
 * entry into each index of `runs`: each index serves the reads it is there for, as far as they
 * need and no further.
 */
describe.each(DATABASE_KINDS)('the reads of runs by their indexes on %s', (kind) => {
  let db: TestDatabase;
  let acme: SeededWorkspace;

  beforeAll(async () => {
    db = await openTestDatabase(kind);
    acme = await seedWorkspace(db.database.store, 'acme');
  });
  afterAll(() => db.dispose());

  const scans = (sql: string, params: unknown[]) =>
    db.database.store.transaction((tx) => indexScansFor(tx, sql, params));

  it('O3: a budget’s period is a range of ix_runs_usage_period, not every run of the workspace', async () => {
    const found = await scans(USAGE_SPENT, [acme.workspaceId, new Date(), null, null]);
    const period = found.find((scan) => scan.index === 'ix_runs_usage_period');
    expect(period?.cond).toMatch(/COALESCE\(started_at, created_at\) >=/);
  });

  it('A12: an agent’s latest runs are read through ix_runs_agent_recent as far as asked, newest first', async () => {
    const found = await scans(RECENT_FOR_AGENTS, [acme.workspaceId, [acme.agentId], 20]);
    expect(found.filter((scan) => scan.index === 'ix_runs_agent_recent')).toEqual([
      { index: 'ix_runs_agent_recent', cond: expect.stringContaining('agent_id ='), limited: true },
    ]);
    const recent = await db.database.store.inWorkspace(acme.workspaceId, (tx) =>
      tx.runs.recentForAgents(acme.workspaceId, [acme.agentId], 20),
    );
    expect(recent.map((run) => run.id)).toEqual([acme.runId]);
  });
});
