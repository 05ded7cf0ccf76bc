import {
  describeEntry,
  ENGINE_SETUPS,
  type EngineHarness,
  held,
  openEngineHarness,
  waitFor,
} from '../../support/engine-harness';
import { ScriptedRunner } from '../../support/scripted-runner';

describe.each(ENGINE_SETUPS)('G4 approval cards on $name', (setup) => {
  let h: EngineHarness;
  let release: () => void;

  beforeEach(async () => {
    const turn = held('pushed');
    release = turn.release;
    h = await openEngineHarness(setup, new ScriptedRunner({ engineer: turn.script }));
    await h.type('@engineer push the fix');
    await turn.started;
  });
  afterEach(async () => {
    release();
    await h.close();
  });

  const details = {
    summary: 'push to acme/api main',
    lines: ['repository acme/api', 'main: 1a2b3c → 4d5e6f'],
  };
  const runId = async () => (await h.runs())[0]?.id ?? 'no run';
  const actor = (senderId: string) => ({
    platform: 'terminal' as const,
    workspace: { slug: 'default' },
    senderId,
  });
  const cardNumber = () =>
    waitFor(async () => {
      const entry = h.thread(1).find((e) => e.kind === 'posted' && e.message.content.kind === 'approval');
      return entry?.kind === 'posted' ? entry.cardNumber : null;
    });

  it('posts the card in the run’s thread; an owner approves it and the card says who', async () => {
    const approval = await h.engine.requestApproval({
      runId: await runId(),
      action: 'push_to_remote',
      details,
    });
    expect(await h.engine.approvalState(approval.id)).toBe('pending');
    const n = await cardNumber();
    await h.type('/thread 1');
    await h.type(`/approve ${n}`);
    expect(await h.engine.approvalState(approval.id)).toBe('allow');
    expect(h.thread(1).map(describeEntry)).toContain('approval(approved) push to acme/api main');
    expect(h.screen()).toContain('approved by you');
    // A second click is refused and changes nothing.
    expect(
      await h.engine.act({ kind: 'approval', approvalId: approval.id, verdict: 'deny' }, actor('you')),
    ).toEqual({
      ok: false,
      reason: expect.stringMatching(/already approved by you/i),
    });
    expect(await h.engine.approvalState(approval.id)).toBe('allow');
  });

  it('refuses clicks by members whose role cannot approve, and by strangers, telling them why', async () => {
    const ws = h.local.workspace.id;
    await h.read((tx) =>
      tx.members.insert(ws, { nickname: 'val', role: 'viewer', slackUserId: null, discordUserId: null }),
    );
    await h.read((tx) =>
      tx.members.insert(ws, { nickname: 'mo', role: 'member', slackUserId: null, discordUserId: null }),
    );
    const approval = await h.engine.requestApproval({
      runId: await runId(),
      action: 'push_to_remote',
      details,
    });
    for (const who of ['val', 'mo']) {
      const result = await h.engine.act(
        { kind: 'approval', approvalId: approval.id, verdict: 'approve' },
        actor(who),
      );
      expect(result).toEqual({ ok: false, reason: expect.stringMatching(/owner, admin or approver/i) });
    }
    expect(
      await h.engine.act(
        { kind: 'approval', approvalId: approval.id, verdict: 'approve' },
        actor('stranger'),
      ),
    ).toEqual({
      ok: false,
      reason: 'Only members of this workspace can decide its approvals.',
    });
    expect(await h.engine.approvalState(approval.id)).toBe('pending');
  });

  it('an unanswered approval expires and counts as denied; the card says so', async () => {
    const approval = await h.engine.requestApproval({
      runId: await runId(),
      action: 'push_to_remote',
      details,
      ttlMs: 1,
    });
    await cardNumber();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await h.engine.expireApprovals()).toEqual([approval.id]);
    expect(await h.engine.approvalState(approval.id)).toBe('deny');
    expect(h.thread(1).map(describeEntry)).toContain('approval(expired) push to acme/api main');
    expect(
      await h.engine.act({ kind: 'approval', approvalId: approval.id, verdict: 'approve' }, actor('you')),
    ).toMatchObject({ ok: false });
  });

  it('a click that lands while the card is being posted (before its ref is stored) still draws the card as decided', async () => {
    // The click arrives between the platform's answer to the post and the stored ref.
    const post = h.platform.post.bind(h.platform);
    h.platform.post = async (thread, message) => {
      const ref = await post(thread, message);
      if (message.content.kind === 'approval')
        expect(
          await h.engine.act(
            { kind: 'approval', approvalId: message.content.card.approvalId, verdict: 'deny' },
            actor('you'),
          ),
        ).toEqual({
          ok: true,
        });
      return ref;
    };
    const approval = await h.engine.requestApproval({
      runId: await runId(),
      action: 'push_to_remote',
      details,
    });
    expect(await h.engine.approvalState(approval.id)).toBe('deny');
    expect(h.thread(1).map(describeEntry)).toContain('approval(denied) push to acme/api main');
    expect(h.thread(1).map(describeEntry)).not.toContain('approval(pending) push to acme/api main');
  });

  it('a deny is final: the waiting action is told to stop', async () => {
    const approval = await h.engine.requestApproval({
      runId: await runId(),
      action: 'open_pull_request',
      details,
    });
    expect(
      await h.engine.act({ kind: 'approval', approvalId: approval.id, verdict: 'deny' }, actor('you')),
    ).toEqual({ ok: true });
    expect(await h.engine.approvalState(approval.id)).toBe('deny');
  });
});
