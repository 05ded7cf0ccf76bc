import type { ThreadEntry } from '../../../src/bots/terminal';
import { createToolKit } from '../../../src/core/engine/tool-kit/turn-tool-kit';
import { COMMITS_ASK_FIRST } from '../../support/anthropic-agent';
import {
  describeEntry,
  ENGINE_SETUPS,
  type EngineHarness,
  openEngineHarness,
  waitFor,
} from '../../support/engine-harness';
import { type Script, ScriptedRunner } from '../../support/scripted-runner';
import { cardsOf, releaseTool, waitingScript } from '../../support/waiting-turns';

const actor = (senderId: string) => ({
  platform: 'terminal' as const,
  workspace: { slug: 'default' },
  senderId,
});

const statusCards = (entries: readonly ThreadEntry[]) =>
  entries.flatMap((e) =>
    e.kind === 'posted' && e.message.content.kind === 'status' ? [e.message.content.card] : [],
  );

const approvalCards = (entries: readonly ThreadEntry[]) =>
  entries.flatMap((e) =>
    e.kind === 'posted' && e.message.content.kind === 'approval' ? [e.message.content.card] : [],
  );

/**
 * A turn that has already written a reply naming @qa and then works until it is aborted; were
 * it allowed to end well, qa would be woken (M14).
 */
function namingQaUntilStopped(): { script: Script; started: Promise<void> } {
  let markStarted = () => {};
  const started = new Promise<void>((resolve) => {
    markStarted = resolve;
  });
  return {
    started,
    script: async function* (request) {
      yield { type: 'text', delta: 'Fixed it. @qa please verify the login flow.' };
      markStarted();
      await new Promise<void>((resolve) =>
        request.signal.addEventListener('abort', () => resolve(), { once: true }),
      );
    },
  };
}

describe.each(ENGINE_SETUPS)('P15: Stop on $name', (setup) => {
  let h: EngineHarness;
  afterEach(() => h?.close());

  const runningRunId = async () =>
    waitFor(async () => (await h.runs()).find((r) => r.status === 'running')?.id ?? null);

  it('P15, M14: /stop by the person who started the turn ends it: the card says who, no reply, nobody woken', async () => {
    const turn = namingQaUntilStopped();
    const runner = new ScriptedRunner({
      engineer: turn.script,
      qa: () => [{ type: 'final', text: 'qa ran' }],
    });
    h = await openEngineHarness(setup, runner);
    await h.type('@engineer fix the login bug');
    await turn.started;
    // P15: the card carries Stop while the turn runs.
    const runId = await runningRunId();
    await waitFor(async () => statusCards(h.thread(1))[0]?.stopRunId === runId);

    await h.type('/stop');
    const [run] = await h.settled(1);
    expect(run).toMatchObject({ id: runId, status: 'failed', error: 'Stopped by @you' });
    await waitFor(async () => statusCards(h.thread(1))[0]?.state === 'stopped');
    const [card] = statusCards(h.thread(1));
    expect(card?.headline).toBe('Stopped by @you');
    expect(card?.stopRunId).toBeUndefined();
    // No reply posted, no "failed" message, and (M14) qa was not started.
    expect(h.thread(1).map(describeEntry)).toEqual([
      'you: @engineer fix the login bug',
      'status(stopped) engineer',
    ]);
    expect(runner.requests.map((r) => r.agent.name)).toEqual(['engineer']);
    expect(await h.runs()).toHaveLength(1);
  });

  it('P15: a member who did not start the turn is refused, with the reason; a stranger too; the turn goes on', async () => {
    const turn = namingQaUntilStopped();
    h = await openEngineHarness(setup, new ScriptedRunner({ engineer: turn.script }));
    const ws = h.local.workspace.id;
    await h.read((tx) =>
      tx.members.insert(ws, { nickname: 'mo', role: 'member', slackUserId: null, discordUserId: null }),
    );
    await h.type('@engineer fix the login bug');
    await turn.started;
    const runId = await runningRunId();

    expect(await h.engine.act({ kind: 'stop-run', runId: runId }, actor('mo'))).toEqual({
      ok: false,
      reason: expect.stringMatching(/only the person who started this turn, or an owner, admin or approver/i),
    });
    expect(await h.engine.act({ kind: 'stop-run', runId: runId }, actor('stranger'))).toEqual({
      ok: false,
      reason: 'Only members of this workspace can stop its turns.',
    });
    const [still] = await h.runs();
    expect(still).toMatchObject({ status: 'running', error: null });
    // The starter (an owner here) may; then the ended turn cannot be stopped again.
    expect(await h.engine.act({ kind: 'stop-run', runId: runId }, actor('you'))).toEqual({ ok: true });
    await h.settled(1);
    expect(await h.engine.act({ kind: 'stop-run', runId: runId }, actor('you'))).toEqual({
      ok: false,
      reason: 'This turn has already ended.',
    });
  });

  it('P15, T1: a turn suspended on an approval is stopped too: its wait ends and the tool never runs', async () => {
    const released: string[] = [];
    h = await openEngineHarness(
      setup,
      new ScriptedRunner({ engineer: waitingScript }),
      {},
      { tools: createToolKit([releaseTool(released)]) },
    );
    await h.read((tx) => tx.guardrails.upsert(h.local.workspace.id, COMMITS_ASK_FIRST));
    await h.type('@engineer release v1');
    await waitFor(async () => cardsOf(h.platform.threads.list()).approvals.length === 1);
    await waitFor(async () => h.engine.slotStats().suspended === 1);
    const runId = await runningRunId();

    expect(await h.engine.act({ kind: 'stop-run', runId: runId }, actor('you'))).toEqual({ ok: true });
    const [run] = await h.settled(1);
    expect(run).toMatchObject({ status: 'failed', error: 'Stopped by @you' });
    expect(released).toEqual([]);
    await waitFor(async () => statusCards(h.thread(1))[0]?.headline === 'Stopped by @you');
    expect(h.engine.slotStats().suspended).toBe(0);
    // G4: its approval card no longer waits: closed (nobody decided it), saying who stopped the turn.
    await waitFor(async () => approvalCards(h.thread(1))[0]?.status === 'denied');
    expect(approvalCards(h.thread(1))[0]).toMatchObject({ decidedBy: null });
    expect(approvalCards(h.thread(1))[0]?.details).toContain('Stopped by @you');
  });

  it('P15, G4, T2: an approval of the run waited on elsewhere (a push held at the gateway) is closed once its wait ends after a Stop; a client that just left leaves it pending', async () => {
    const turn = namingQaUntilStopped();
    h = await openEngineHarness(setup, new ScriptedRunner({ engineer: turn.script }));
    await h.type('@engineer push the fix');
    await turn.started;
    const runId = await runningRunId();
    const approval = await h.engine.requestApproval({
      runId,
      action: 'push_to_remote',
      details: { summary: 'push to acme/widgets main', lines: ['main: 1111111 → 2222222'] },
    });
    // A git client that gives up while the turn runs on: the approval stays, for a retried push.
    const first = new AbortController();
    const gaveUp = h.engine.awaitApproval(approval.id, first.signal);
    first.abort();
    expect(await gaveUp).toBe('aborted');
    expect(await h.read((tx) => tx.approvals.findById(approval.id))).toMatchObject({ status: 'pending' });

    const client = new AbortController();
    const waiting = h.engine.awaitApproval(approval.id, client.signal);
    expect(await h.engine.act({ kind: 'stop-run', runId: runId }, actor('you'))).toEqual({ ok: true });
    await h.settled(1);
    // The stopped turn's git client goes away: its held push's wait ends, and the approval with it.
    client.abort();
    expect(await waiting).toBe('aborted');
    const stored = await h.read((tx) => tx.approvals.findById(approval.id));
    expect(stored).toMatchObject({ status: 'denied', decidedByMemberId: null });
    expect(stored?.details.lines).toEqual(['main: 1111111 → 2222222', 'Stopped by @you']);
    await waitFor(async () => approvalCards(h.thread(1))[0]?.status === 'denied');
    expect(approvalCards(h.thread(1))[0]?.details).toContain('Stopped by @you');
  });

  if (setup.redis) {
    it('P15, T1: a Stop handled by another engine process stops the turn running in this one (Redis pub/sub)', async () => {
      const turn = namingQaUntilStopped();
      h = await openEngineHarness(setup, new ScriptedRunner({ engineer: turn.script }));
      await h.type('@engineer fix the login bug');
      await turn.started;
      const runId = await runningRunId();
      const peer = await h.openPeer();
      expect(await peer.act({ kind: 'stop-run', runId: runId }, actor('you'))).toEqual({ ok: true });
      const [run] = await h.settled(1);
      expect(run).toMatchObject({ status: 'failed', error: 'Stopped by @you' });
      await waitFor(async () => statusCards(h.thread(1))[0]?.headline === 'Stopped by @you');
    });
  }
});
