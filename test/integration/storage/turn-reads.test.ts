import { envReference } from '../../../src/core/mcp/env-references';
import type { RunRecord } from '../../../src/core/model/records';
import type { SqlStoreTx } from '../../../src/storage/store/sql-store';
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from '../../support/test-database';
import { type SeededWorkspace, seedWorkspace } from './workspace-fixture';

/**
 * T3 (issue 12, item 5): a claimed turn's reads, sent together in one round trip, are exactly
 * what each repository returns on its own — the same rows, the same order, the same values
 * (dates, JSON, arrays) — and row-level security still hides another workspace's rows.
 */
describe.each(DATABASE_KINDS)('a turn’s reads in one round trip on %s', (kind) => {
  let db: TestDatabase;
  let acme: SeededWorkspace;
  let globex: SeededWorkspace;

  beforeAll(async () => {
    db = await openTestDatabase(kind);
    acme = await seedWorkspace(db.database.store, 'acme');
    globex = await seedWorkspace(db.database.store, 'globex');
    await db.database.store.inWorkspace(acme.workspaceId, (tx) =>
      tx.checkpoints.save(acme.workspaceId, {
        runId: acme.runId,
        checkpoint: {
          format: 'anthropic',
          exchanges: [[{ role: 'user', content: 'fix it' }]],
          round: null,
          rounds: 1,
          nudged: false,
        },
        statusCardRef: '1700000000.000200',
        at: new Date(Date.UTC(2026, 11, 2, 1, 2, 3, 456)),
      }),
    );
    // E1: the turn's MCP servers (the space's and the agent's) come with the rest, JSON intact.
    await inWs(acme.workspaceId, async (tx) => {
      await tx.mcpServers.save(acme.workspaceId, {
        name: 'tracker',
        transport: 'stdio',
        command: 'npx',
        args: ['-y', '@example/tracker'],
        env: { TOKEN: envReference('TRACKER_TOKEN') },
        allowedDomains: ['api.example.com'],
        readOnlyPaths: [],
      });
      await tx.mcpServers.save(acme.workspaceId, {
        name: 'docs',
        transport: 'http',
        url: 'https://docs.example.com/mcp',
        headers: { 'x-key': envReference('DOCS_KEY') },
      });
      await tx.mcpServers.assign(acme.workspaceId, { spaceId: acme.spaceId }, ['tracker']);
      await tx.members.insert(acme.workspaceId, {
        nickname: 'bystander',
        role: 'member',
        slackUserId: 'U-bystander',
        discordUserId: null,
      });
      await tx.mcpServers.assign(acme.workspaceId, { agentId: acme.agentId }, ['docs', 'tracker']);
    });
  });
  afterAll(() => db.dispose());

  const inWs = <T>(workspaceId: string, work: (tx: SqlStoreTx) => Promise<T>) =>
    db.database.store.inWorkspace(workspaceId, work);
  const runOf = async (seeded: SeededWorkspace): Promise<RunRecord> => {
    const run = await inWs(seeded.workspaceId, (tx) => tx.runs.findById(seeded.runId));
    if (run === null) throw new Error('no run');
    return run;
  };

  /**
   * What the turn read one repository call at a time before; of the members, those the turn
   * names (P8, M10, G4: the history's and the trigger's authors, the run's starter, the space's people).
   */
  const oneByOne = (tx: SqlStoreTx, run: RunRecord, history: number) =>
    (async () => {
      const conversation = await tx.conversations.findById(run.conversationId);
      const spaces = await tx.spaces.list(run.workspaceId);
      const space = spaces.find((s) => s.id === conversation?.spaceId) ?? null;
      const participants = space === null ? [] : await tx.spaces.listParticipants(space.id);
      const recent = await tx.messages.listRecent(run.conversationId, history);
      const trigger = run.triggerMessageId === null ? null : await tx.messages.findById(run.triggerMessageId);
      const named = new Set([
        ...recent.map((m) => m.authorMemberId),
        trigger?.authorMemberId,
        run.startedByMemberId,
        ...participants.flatMap((p) => (p.kind === 'member' ? [p.memberId] : [])),
      ]);
      return {
        workspace: await tx.workspaces.findById(run.workspaceId),
        conversation,
        space,
        agents: await tx.agents.list(run.workspaceId),
        members: (await tx.members.list(run.workspaceId)).filter((m) => named.has(m.id)),
        skills: await tx.skills.list(run.workspaceId),
        participants,
        recent,
        trigger,
        checkpoint: await tx.checkpoints.find(run.id),
        mcpServers: await tx.mcpServers.forTurn(run.agentId, space?.id ?? null),
      };
    })();

  it.each([1, 2, 50])('equals the repositories’ own answers (history of %i)', async (history) => {
    const run = await runOf(acme);
    const together = await inWs(acme.workspaceId, (tx) => tx.turnReads.read(run, history));
    const apart = await inWs(acme.workspaceId, (tx) => oneByOne(tx, run, history));
    expect(together).toEqual(apart);
    expect(together.recent.length).toBe(Math.min(history, apart.recent.length));
    expect(together.checkpoint).toMatchObject({ runId: acme.runId, statusCardRef: '1700000000.000200' });
    expect(together.checkpoint?.updatedAt).toEqual(new Date(Date.UTC(2026, 11, 2, 1, 2, 3, 456)));
    expect(together.trigger?.id).toBe(acme.messageId);
    expect(together.participants).toHaveLength(2);
    expect(together.mcpServers.map((server) => server.name)).toEqual(['docs', 'tracker']);
    // P8: a member the turn does not name is not read (the workspace's people are not the turn's).
    expect(together.members.map((m) => m.nickname)).not.toContain('bystander');
    expect(together.members.length).toBeGreaterThan(0);
  });

  it('A2: read in another workspace, a run’s rows are hidden (nothing of it comes back)', async () => {
    const run = await runOf(acme);
    const seen = await inWs(globex.workspaceId, (tx) => tx.turnReads.read(run, 50));
    expect(seen).toEqual({
      workspace: null,
      conversation: null,
      space: null,
      agents: [],
      members: [],
      skills: [],
      participants: [],
      recent: [],
      trigger: null,
      checkpoint: null,
      mcpServers: [],
    });
  });

  it('a run without a trigger or checkpoint, and ids that are not uuids, read as nothing', async () => {
    const run = { ...(await runOf(globex)), triggerMessageId: null };
    await inWs(globex.workspaceId, (tx) => tx.checkpoints.remove(globex.runId));
    const reads = await inWs(globex.workspaceId, (tx) => tx.turnReads.read(run, 50));
    expect(reads.trigger).toBeNull();
    expect(reads.checkpoint).toBeNull();
    expect(reads.workspace?.id).toBe(globex.workspaceId);
    const odd = await inWs(globex.workspaceId, (tx) =>
      tx.turnReads.read({ ...run, conversationId: "x'; DROP TABLE runs; --" }, 50),
    );
    expect(odd.conversation).toBeNull();
    expect(await inWs(globex.workspaceId, (tx) => tx.runs.findById(globex.runId))).not.toBeNull();
  });
});
