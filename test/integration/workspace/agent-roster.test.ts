import { listAgentViews, showAgentView } from '../../../src/core/agents/agent-roster';
import type { RunLiveness, RunStatus } from '../../../src/core/model/run';
import { ensureWorkspace } from '../../../src/core/workspace/seed-workspace';
import { DATABASE_KINDS, openTestDatabase } from '../../support/test-database';

describe.each(DATABASE_KINDS)('agent roster live status on %s (A12)', (kind) => {
  let db: Awaited<ReturnType<typeof openTestDatabase>>;
  beforeAll(async () => {
    db = await openTestDatabase(kind);
  });
  afterAll(() => db.dispose());

  it('derives each agent status from its own latest runs, never from a stored status', async () => {
    const store = db.database.store;
    const workspaceId = await store.transaction(async (tx) => {
      const { workspace } = await ensureWorkspace(tx, 'roster');
      const space = await tx.spaces.insert(workspace.id, {
        name: 'general',
        context: '',
        mode: 'chat',
        autonomy: 'actWithApproval',
        dedicated: true,
        whileRunning: 'steer',
        repos: [],
      });
      const [conversation] = await tx.query<{ id: string }>(
        `INSERT INTO conversations (workspace_id, space_id, platform, title) VALUES ($1, $2, 'terminal', 't') RETURNING id`,
        [workspace.id, space.id],
      );
      const agents = await tx.agents.list(workspace.id);
      const idOf = (name: string) => agents.find((a) => a.name === name)?.id ?? '';
      let minute = 0;
      const run = (agent: string, status: RunStatus, liveness: RunLiveness = 'ok') =>
        tx.runs.insert({
          workspaceId: workspace.id,
          agentId: idOf(agent),
          conversationId: conversation?.id ?? '',
          triggerMessageId: null,
          status,
          liveness,
          wakeChain: [idOf(agent)],
          depth: 1,
          startedByMemberId: null,
          startedByAgentId: null,
          createdAt: new Date(Date.UTC(2026, 10, 29, 12, minute++)),
          startedAt: null,
          finishedAt: null,
          lastEventAt: null,
          error: null,
        });
      await run('qa', 'failed');
      await run('qa', 'succeeded'); // idle: the last run succeeded
      await run('architect', 'succeeded');
      await run('architect', 'failed', 'dead'); // failed: died with its worker
      await run('engineer', 'succeeded');
      await run('engineer', 'running'); // running
      await run('librarian', 'running', 'blocked'); // blocked: waiting on an approval
      return workspace.id;
    });

    const views = await listAgentViews(store, 'roster');
    expect(Object.fromEntries(views.map((v) => [v.agent.name, v.status]))).toEqual({
      ceo: 'neverRun',
      qa: 'idle',
      architect: 'failed',
      engineer: 'running',
      librarian: 'blocked',
    });
    expect(views.find((v) => v.agent.name === 'qa')?.lastRunAt).toEqual(
      new Date(Date.UTC(2026, 10, 29, 12, 1)),
    );
    expect((await showAgentView(store, 'roster', 'Engineer')).reportsTo).toBe('ceo');
    expect(workspaceId).toBeTruthy();
  });
});
