import { DEFAULT_TIMINGS } from '../../../src/core/engine/engine-timings';
import { claimTurn } from '../../../src/core/engine/turn/load-claimed-turn';
import { turnContextFrom } from '../../../src/core/engine/turn/turn-context';
import { TurnWrites } from '../../../src/core/engine/turn/turn-writes';
import type { McpServerSpec } from '../../../src/core/model/mcp/mcp-server';
import type { SqlStoreTx } from '../../../src/storage/store/sql-store';
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from '../../support/test-database';
import {
  agentFields,
  queuedRun,
  type SeededWorkspace,
  seedWorkspace,
  spaceFields,
} from '../storage/workspace-fixture';

/**
 * T3 (issue 12, item 5; issue 34): a job's own run has its turn read with the claim, in one
 * round trip with its COMMIT; when the claim takes another run of the lane (an older one
 * queued), what the turn reads is that run's, never the job's (read after the claim's COMMIT).
 */
describe.each(DATABASE_KINDS)('claiming a lane and reading its turn on %s', (kind) => {
  let db: TestDatabase;
  let acme: SeededWorkspace;
  const deps = () => ({
    timings: DEFAULT_TIMINGS,
    clock: { now: () => new Date() },
    store: db.database.store,
    turnWrites: new TurnWrites(db.database.store),
  });

  beforeAll(async () => {
    db = await openTestDatabase(kind);
    acme = await seedWorkspace(db.database.store, 'acme');
    // The seeded run is running: finish it, so the lane is free.
    await db.database.store.inWorkspace(acme.workspaceId, (tx) =>
      tx.runs.update(acme.runId, { status: 'succeeded', finishedAt: new Date() }),
    );
  });
  afterAll(() => db.dispose());

  const inAcme = <T>(work: (tx: SqlStoreTx) => Promise<T>) =>
    db.database.store.inWorkspace(acme.workspaceId, work);
  const lane = () => ({
    workspaceId: acme.workspaceId,
    agentId: acme.agentId,
    conversationId: acme.conversationId,
  });

  /** A person's message in the seeded thread and a queued run it triggers. */
  const queueRun = (text: string) =>
    inAcme(async (tx) => {
      const message = await tx.messages.insert(acme.workspaceId, {
        conversationId: acme.conversationId,
        authorKind: 'person',
        authorAgentId: null,
        authorMemberId: acme.memberId,
        text,
        mentions: { agents: [], members: [] },
        platformMessageRef: null,
        note: null,
      });
      const run = await tx.runs.insert(queuedRun(acme, message.id));
      return { run, message };
    });

  const finish = (runId: string) =>
    inAcme((tx) => tx.runs.update(runId, { status: 'succeeded', finishedAt: new Date() }));

  it('reads the job’s own run with the claim, as a read after the claim would have', async () => {
    const { run, message } = await queueRun('first');
    const together = await claimTurn(deps(), lane(), run.id);
    expect(together?.claimed.id).toBe(run.id);
    if (together === null || together.loaded instanceof Error) throw new Error('not loaded');
    expect(together.loaded.context.trigger?.id).toBe(message.id);
    // The same turn, read on its own after the claim: the same context and checkpoint.
    const apart = await inAcme((tx) => tx.turnReads.read(together.claimed, DEFAULT_TIMINGS.historyMessages));
    expect(together.loaded.context).toEqual(turnContextFrom(together.claimed, apart));
    expect(together.loaded.stored).toEqual(apart.checkpoint);
    await finish(run.id);
  });

  it('when the claim takes an older run of the lane, the turn read is that run’s', async () => {
    const older = await queueRun('older');
    const newer = await queueRun('newer');
    const claimed = await claimTurn(deps(), lane(), newer.run.id);
    expect(claimed?.claimed.id).toBe(older.run.id);
    if (claimed === null || claimed.loaded instanceof Error) throw new Error('not loaded');
    expect(claimed.loaded.context.trigger?.id).toBe(older.message.id);
    expect(claimed.loaded.context.trigger?.text).toBe('older');
    await finish(older.run.id);
    await finish(newer.run.id);
  });

  const http = (name: string): McpServerSpec => ({
    name,
    transport: 'http',
    url: `https://${name}.example.com/mcp`,
    headers: {},
  });

  it('E1, T3: the run’s MCP servers (its agent’s and its space’s) come with the claim, as forTurn lists them', async () => {
    const { run } = await queueRun('with tools');
    await inAcme(async (tx) => {
      for (const name of ['zeta', 'alpha', 'mid', 'elsewhere', 'unassigned'])
        await tx.mcpServers.save(acme.workspaceId, http(name));
      const other = await tx.spaces.insert(acme.workspaceId, spaceFields('other-space'));
      const bob = await tx.agents.insert(acme.workspaceId, agentFields('bob'));
      await tx.mcpServers.assign(acme.workspaceId, { spaceId: acme.spaceId }, ['zeta', 'mid']);
      await tx.mcpServers.assign(acme.workspaceId, { agentId: acme.agentId }, ['mid', 'alpha']);
      // Another space's and another agent's servers are not this turn's.
      await tx.mcpServers.assign(acme.workspaceId, { spaceId: other.id }, ['elsewhere']);
      await tx.mcpServers.assign(acme.workspaceId, { agentId: bob.id }, ['elsewhere']);
    });
    const claimed = await claimTurn(deps(), lane(), run.id);
    if (claimed === null || claimed.loaded instanceof Error) throw new Error('not loaded');
    const read = claimed.loaded.context.mcpServers;
    expect(read.map((s) => s.name)).toEqual(['alpha', 'mid', 'zeta']);
    expect(read[0]).toEqual(http('alpha'));
    expect(read).toEqual(await inAcme((tx) => tx.mcpServers.forTurn(acme.agentId, acme.spaceId)));
    await finish(run.id);
  });

  it('claims nothing while the lane runs a turn (T3), and nothing when none is queued', async () => {
    const { run } = await queueRun('busy');
    await inAcme((tx) => tx.runs.update(run.id, { status: 'running', startedAt: new Date() }));
    const waiting = await queueRun('waits');
    expect(await claimTurn(deps(), lane(), waiting.run.id)).toBeNull();
    await finish(run.id);
    await finish(waiting.run.id);
    expect(await claimTurn(deps(), lane(), waiting.run.id)).toBeNull();
  });
});
