import { createToolKit } from '../../../../src/core/engine/tool-kit/turn-tool-kit';
import { waitFor } from '../../../support/engine-harness';
import { ScriptedRunner } from '../../../support/scripted-runner';
import { CHANNEL, eventFrom, TEAM } from '../../../support/slack-delivery';
import { openSlackHarness, PEOPLE, type SlackHarness } from '../../../support/slack-harness';

const mia = {
  platform: 'slack' as const,
  workspace: { platform: 'slack' as const, externalId: TEAM },
  senderId: PEOPLE.mia.userId,
};

describe('P15, T2: the agent session a dead worker left at processing is settled by the process that recovers its turn', () => {
  let h: SlackHarness;
  afterEach(() => h?.close());
  const engineOf = () => {
    if (h.engine === null) throw new Error('no engine');
    return h.engine;
  };

  /**
   * A thread where engineer answered once (its session opened and closed), then what a
   * SIGKILLed worker leaves behind in it: a run still `running` whose heartbeat stopped, and
   * the session it had set to `processing` (a CLI agent's turn: no checkpoint).
   */
  const deadWorkerIn = async () => {
    h = await openSlackHarness({
      runner: new ScriptedRunner({ engineer: () => [{ type: 'final', text: 'first answer' }] }),
      tools: createToolKit([], {}),
      standIn: { agentSessions: { enabled: true } },
    });
    const ts = h.standIn.addPersonMessage(CHANNEL, null);
    await h.deliver(
      eventFrom('message-channel', { ts, user: PEOPLE.mia.userId, text: '@engineer hi' }, 'Ev0DEADSESS1'),
    );
    await waitFor(async () => h.standIn.agentSessions.find(CHANNEL, ts)?.status === 'closed');
    const [first] = await h.runs();
    if (first === undefined) throw new Error('no run');
    const stale = new Date(Date.now() - 10 * 60_000);
    const orphan = await h.read((tx) =>
      tx.runs.insert({
        workspaceId: h.local.workspace.id,
        agentId: first.agentId,
        conversationId: first.conversationId,
        triggerMessageId: null,
        status: 'running',
        liveness: 'ok',
        wakeChain: [first.agentId],
        depth: 1,
        startedByMemberId: first.startedByMemberId,
        startedByAgentId: null,
        startedAt: stale,
        finishedAt: null,
        lastEventAt: stale,
        error: null,
      }),
    );
    expect(
      h.standIn.agentSessions.setStatus({ channel_id: CHANNEL, thread_ts: ts, status: 'processing' }),
    ).toMatchObject({ ok: true });
    return { ts, orphan, session: () => h.standIn.agentSessions.find(CHANNEL, ts) };
  };

  it('P15, A12: a dead CLI agent’s turn is marked dead and its session is closed', async () => {
    const { orphan, session } = await deadWorkerIn();
    const { dead } = await engineOf().recover();
    expect(dead).toEqual([orphan.id]);
    await waitFor(async () => session()?.status === 'closed');
    expect(session()?.statuses).toEqual(['processing', 'closed', 'processing', 'closed']);
  });

  it('P15, T2: a turn parked on its approval shows suspended; a Stop on it then closes the session', async () => {
    const { orphan, session } = await deadWorkerIn();
    // The dead worker's turn stood at a call waiting on its approval (a built-in runner's checkpoint).
    const approval = await h.read(async (tx) => {
      const now = new Date();
      const pending = await tx.approvals.insert(h.local.workspace.id, {
        runId: orphan.id,
        action: 'commit',
        details: { summary: 'engineer wants to commit', lines: [] },
        requestedAt: now,
        expiresAt: new Date(now.getTime() + 30 * 60_000),
      });
      const call = { callId: 'c1', name: 'release', input: { tag: 'r1' } };
      const round = { assistant: {}, calls: [call], outcomes: [], inFlight: true };
      const checkpoint = { format: 'anthropic', exchanges: [], round, rounds: 1, nudged: false };
      await tx.checkpoints.save(h.local.workspace.id, {
        runId: orphan.id,
        checkpoint,
        statusCardRef: null,
        at: now,
      });
      await tx.checkpoints.setApproval(orphan.id, pending.id);
      return pending;
    });
    const engine = engineOf();
    expect(await engine.recover()).toMatchObject({ dead: [], parked: [orphan.id] });
    await waitFor(async () => session()?.status === 'suspended');
    // Parked and seen again by the next pass: nothing more is sent.
    expect(await engine.recover()).toMatchObject({ parked: [orphan.id] });

    expect(await engine.act({ kind: 'stop-run', runId: orphan.id }, mia)).toEqual({ ok: true });
    await waitFor(async () => session()?.status === 'closed');
    expect(session()?.statuses).toEqual(['processing', 'closed', 'processing', 'suspended', 'closed']);
    expect(await h.read((tx) => tx.runs.findById(orphan.id))).toMatchObject({
      status: 'failed',
      error: 'Stopped by @mia',
    });
    expect(await h.read((tx) => tx.approvals.findById(approval.id))).toMatchObject({
      status: 'denied',
      details: { lines: ['Stopped by @mia'] },
    });
  });
});
