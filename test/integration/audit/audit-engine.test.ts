import { createTurnTools } from '../../../src/app/turn-tools';
import type { AuditKind } from '../../../src/core/model/audit/audit-event';
import type { Runner, RunnerEvent, RunnerRequest } from '../../../src/core/ports/runner';
import {
  ENGINE_SETUPS,
  type EngineHarness,
  held,
  openEngineHarness,
  waitFor,
} from '../../support/engine-harness';
import { type Script, ScriptedRunner } from '../../support/scripted-runner';

/** A turn that runs until it is stopped. */
const untilStopped: Script = async function* (request) {
  yield { type: 'text', delta: 'working' };
  await new Promise<void>((resolve) =>
    request.signal.addEventListener('abort', () => resolve(), { once: true }),
  );
};

/** A runner whose commands run outside Summon: each is authorized first, as a CLI agent's hook does. */
class AuthorizingRunner implements Runner {
  constructor(private readonly commands: string[]) {}
  async *run(request: RunnerRequest): AsyncIterable<RunnerEvent> {
    for (const [index, command] of this.commands.entries()) {
      await request.tools.authorize(
        { callId: `cli-${index}`, name: 'Bash', input: { command } },
        request.signal,
      );
    }
    yield { type: 'final', text: 'done' };
  }
}

const [setup] = ENGINE_SETUPS;

describe(`O4 the engine's recorded changes on ${setup.name}`, () => {
  let h: EngineHarness;
  let release = () => {};
  afterEach(async () => {
    release();
    await h?.close();
  });

  const events = (kind: AuditKind) =>
    h.read(async (tx) => (await tx.audit.page(h.local.workspace.id, { kind }, null, 100)).events);
  const runId = async () => waitFor(async () => (await h.runs())[0]?.id ?? null);

  it('G4, O4: an approval asked by the agent, decided by the member where they clicked, and another that expired', async () => {
    const turn = held('pushed');
    release = turn.release;
    h = await openEngineHarness(setup, new ScriptedRunner({ engineer: turn.script }));
    await h.type('@engineer push the fix');
    await turn.started;
    const details = { summary: 'push to acme/api main', lines: [] };
    const approval = await h.engine.requestApproval({
      runId: await runId(),
      action: 'push_to_remote',
      details,
    });
    const n = await waitFor(async () => {
      const entry = h.thread(1).find((e) => e.kind === 'posted' && e.message.content.kind === 'approval');
      return entry?.kind === 'posted' ? entry.cardNumber : null;
    });
    await h.type('/thread 1');
    await h.type(`/approve ${n}`);
    const lapsed = await h.engine.requestApproval({
      runId: await runId(),
      action: 'push_to_remote',
      details,
      ttlMs: 1,
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await h.engine.expireApprovals()).toEqual([lapsed.id]);

    expect(
      (await events('approval_asked')).map((e) => [e.subject, e.actor.kind, e.actor.name, e.where]),
    ).toEqual([
      [`approval ${approval.id} (push_to_remote)`, 'agent', 'engineer', 'terminal'],
      [`approval ${lapsed.id} (push_to_remote)`, 'agent', 'engineer', 'terminal'],
    ]);
    expect(
      (await events('approval_decided')).map((e) => [e.subject, e.actor.name, e.where, e.detail.status]),
    ).toEqual([
      [`approval ${approval.id} (push_to_remote)`, 'you', 'terminal', 'approved'],
      [`approval ${lapsed.id} (push_to_remote)`, 'summon', 'system', 'expired'],
    ]);
  });

  it('G1, G2, O4: a tool call the rules decide alone is recorded with its decision; an ungated one is not', async () => {
    const commands = ['npm test', 'git commit -m fix', 'curl https://example.com'];
    h = await openEngineHarness(
      setup,
      new AuthorizingRunner(commands),
      {},
      { tools: createTurnTools({}, {}) },
    );
    await h.read((tx) =>
      tx.guardrails.upsert(h.local.workspace.id, {
        scopeKind: 'space',
        scopeId: h.local.space.id,
        action: 'network',
        decision: 'deny',
      }),
    );
    await h.type('@engineer ship it');
    await h.settled(1);
    const guarded = await events('tool_guarded');
    expect(guarded.map((e) => [e.actor.name, e.detail.decision, e.detail.actions, e.detail.summary])).toEqual(
      [
        ['engineer', 'allow', ['commit'], 'Bash: git commit -m fix'],
        ['engineer', 'deny', ['network'], 'Bash: curl https://example.com'],
      ],
    );
    expect(String(guarded[1]?.detail.reason)).toMatch(/network is denied/);
  });

  it('P15, O4: a Stop is recorded with who stopped which turn, and where', async () => {
    h = await openEngineHarness(setup, new ScriptedRunner({ engineer: untilStopped }));
    await h.type('@engineer fix the login bug');
    const id = await waitFor(async () => (await h.runs()).find((r) => r.status === 'running')?.id ?? null);
    await h.type('/stop');
    await h.settled(1);
    expect(
      (await events('turn_stopped')).map((e) => [e.subject, e.actor.name, e.where, e.detail.was]),
    ).toEqual([[`run ${id}`, 'you', 'terminal', 'running']]);
  });

  it('O3, O4: a turn a used-up budget refuses at its start is recorded with the budget and what was spent', async () => {
    h = await openEngineHarness(
      setup,
      new ScriptedRunner({ engineer: () => [{ type: 'final', text: 'done' }] }),
    );
    await h.type('@engineer first');
    const [first] = await h.settled(1);
    const ws = h.local.workspace.id;
    await h.read(async (tx) => {
      const usage = { inputTokens: 40, outputTokens: 2, cacheReadTokens: 0, cacheWriteTokens: 0 };
      await tx.usage.addToRun(first?.id ?? 'no run', { model: 'claude-sonnet-4-6', usage, costUsd: 0.01 });
    });
    await h.store.transaction((tx) =>
      tx.workspaces.setBudgets(ws, [
        { scope: 'agent', target: 'engineer', per: 'day', unit: 'tokens', limit: 10 },
      ]),
    );
    await h.type('@engineer second');
    const runs = await h.settled(2);
    const refused = runs.find((r) => r.id !== first?.id);
    expect(refused?.status).toBe('failed');
    expect(
      (await events('budget_stopped')).map((e) => [
        e.subject,
        e.actor.kind,
        e.where,
        e.detail.limit,
        e.detail.spentTokens,
      ]),
    ).toEqual([[`run ${refused?.id} of engineer`, 'system', 'terminal', 10, 42]]);
  });
});
