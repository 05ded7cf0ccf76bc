import { ValidationError } from '../../../src/core/errors';
import type { RunRecord } from '../../../src/core/model/records';
import type { StoreTx } from '../../../src/core/ports/store';
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from '../../support/test-database';
import { agentFields, type SeededWorkspace, seedWorkspace } from './workspace-fixture';

describe.each(DATABASE_KINDS)('guardrails, runs and inbound events on %s', (kind) => {
  let db: TestDatabase;
  let seeded: SeededWorkspace;
  let ws: string;

  beforeAll(async () => {
    db = await openTestDatabase(kind);
    seeded = await seedWorkspace(db.database.store, 'acme');
    ws = seeded.workspaceId;
  });
  afterAll(() => db.dispose());

  const inWs = <T>(work: (tx: StoreTx) => Promise<T>) => db.database.store.inWorkspace(ws, work);

  it('keeps one guardrail rule per scope and action: upserting again replaces the decision (G1)', async () => {
    const rule = await inWs((tx) =>
      tx.guardrails.upsert(ws, {
        scopeKind: 'agent',
        scopeId: seeded.agentId,
        action: 'commit',
        decision: 'deny',
      }),
    );
    expect(rule).toEqual({
      id: expect.any(String),
      workspaceId: ws,
      scopeKind: 'agent',
      scopeId: seeded.agentId,
      action: 'commit',
      decision: 'deny',
      tool: null,
    });
    const again = await inWs((tx) =>
      tx.guardrails.upsert(ws, {
        scopeKind: 'agent',
        scopeId: seeded.agentId,
        action: 'commit',
        decision: 'allow',
      }),
    );
    expect(again).toEqual({ ...rule, decision: 'allow' });
    // A workspace-wide rule has no scope id; it is still one rule per action.
    await inWs((tx) =>
      tx.guardrails.upsert(ws, {
        scopeKind: 'workspace',
        scopeId: null,
        action: 'push_to_remote',
        decision: 'deny',
      }),
    );
    const rules = await inWs((tx) => tx.guardrails.list(ws));
    expect(
      rules.map((r) => `${r.scopeKind}:${r.scopeId === null ? '-' : 'id'}:${r.action}:${r.decision}`),
    ).toEqual(['workspace:-:push_to_remote:deny', 'agent:id:commit:allow']);
    await expect(
      inWs((tx) =>
        tx.guardrails.upsert(ws, { scopeKind: 'space', scopeId: null, action: 'network', decision: 'ask' }),
      ),
    ).rejects.toBeInstanceOf(ValidationError);
  });

  it('E4 keeps one mcp rule per scope and tool; a tool-less one is one more; only mcp rules name a tool', async () => {
    const mcp = (tool: string | null, decision: 'allow' | 'ask' | 'deny') =>
      inWs((tx) =>
        tx.guardrails.upsert(ws, {
          scopeKind: 'space',
          scopeId: seeded.spaceId,
          action: 'mcp',
          decision,
          tool,
        }),
      );
    const exact = await mcp('linear__create_issue', 'deny');
    expect(exact).toMatchObject({ action: 'mcp', tool: 'linear__create_issue', decision: 'deny' });
    await mcp('linear__*', 'ask');
    await mcp(null, 'allow');
    expect((await mcp('linear__create_issue', 'allow')).id).toBe(exact.id);
    const rules = (await inWs((tx) => tx.guardrails.list(ws))).filter((r) => r.action === 'mcp');
    expect(rules.map((r) => `${r.tool ?? '-'}=${r.decision}`)).toEqual([
      'linear__create_issue=allow',
      'linear__*=ask',
      '-=allow',
    ]);
    await expect(
      inWs((tx) =>
        tx.guardrails.upsert(ws, {
          scopeKind: 'workspace',
          scopeId: null,
          action: 'commit',
          decision: 'ask',
          tool: 'linear__*',
        }),
      ),
    ).rejects.toBeInstanceOf(ValidationError);
  });

  it('returns the newest runs of each agent, at most perAgent each, newest first (A12)', async () => {
    const { agentIds, conversationId } = await inWs(async (tx) => ({
      agentIds: [
        (await tx.agents.insert(ws, agentFields('run_a'))).id,
        (await tx.agents.insert(ws, agentFields('run_b'))).id,
        (await tx.agents.insert(ws, agentFields('run_c'))).id,
      ],
      conversationId: seeded.conversationId,
    }));
    const [a, b, c] = agentIds as [string, string, string];
    const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 12, minute));
    const run = (agentId: string, minute: number, status: RunRecord['status'] = 'succeeded') => ({
      workspaceId: ws,
      agentId,
      conversationId,
      triggerMessageId: null,
      status,
      liveness: 'ok' as const,
      wakeChain: [seeded.agentId],
      depth: 2,
      startedByMemberId: null,
      startedByAgentId: seeded.agentId,
      createdAt: at(minute),
      startedAt: at(minute),
      finishedAt: null,
      lastEventAt: null,
      error: null,
    });
    const inserted = await inWs(async (tx) => {
      const out: RunRecord[] = [];
      for (const [agentId, minute] of [
        [a, 1],
        [a, 5],
        [b, 2],
        [a, 3],
        [b, 4],
        [a, 7],
      ] as const) {
        out.push(await tx.runs.insert(run(agentId, minute)));
      }
      // Two runs created at the same instant: the later insert counts as newer.
      out.push(await tx.runs.insert(run(b, 9, 'failed')));
      out.push(await tx.runs.insert(run(b, 9, 'running')));
      return out;
    });
    expect(inserted[0]).toEqual({
      ...run(a, 1),
      id: expect.any(String),
      createdAt: at(1),
      statusCardRef: null,
      replyMessageId: null,
    });

    const recent = await inWs((tx) => tx.runs.recentForAgents(ws, [a, b, c], 2));
    expect(recent.map((r) => [r.agentId === a ? 'a' : 'b', r.createdAt.getUTCMinutes(), r.status])).toEqual([
      ['b', 9, 'running'],
      ['b', 9, 'failed'],
      ['a', 7, 'succeeded'],
      ['a', 5, 'succeeded'],
    ]);
    expect(await inWs((tx) => tx.runs.recentForAgents(ws, [], 3))).toEqual([]);
    expect((await inWs((tx) => tx.runs.recentForAgents(ws, [a], 1))).map((r) => r.id)).toEqual([
      inserted[5]?.id,
    ]);
  });

  it('records an inbound event once: a retry or replay is reported as seen (P6)', async () => {
    const record = (platform: 'slack' | 'discord', id: string) =>
      db.database.store.transaction((tx) => tx.processedEvents.record(platform, id));
    expect(await record('slack', 'Ev1')).toBe(true);
    expect(await record('slack', 'Ev1')).toBe(false);
    expect(await record('discord', 'Ev1')).toBe(true);
    // Concurrent deliveries of one event: exactly one of them is first.
    const firsts = await Promise.all(Array.from({ length: 6 }, () => record('slack', 'Ev2')));
    expect(firsts.filter(Boolean)).toHaveLength(1);
  });
});
