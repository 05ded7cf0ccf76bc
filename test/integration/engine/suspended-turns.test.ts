import { createToolKit } from '../../../src/core/engine/tool-kit/turn-tool-kit';
import { COMMITS_ASK_FIRST } from '../../support/anthropic-agent';
import {
  describeEntry,
  ENGINE_SETUPS,
  type EngineHarness,
  openEngineHarness,
  waitFor,
} from '../../support/engine-harness';
import { ManualClock } from '../../support/manual-clock';
import { ScriptedRunner } from '../../support/scripted-runner';
import { cardsOf, releaseTool, waitingScript } from '../../support/waiting-turns';

const you = { platform: 'terminal' as const, workspace: { slug: 'default' }, senderId: 'you' };
const APPROVALS = 50;
const QUESTIONS = 20;

describe.each(ENGINE_SETUPS)('T1: turns that wait hold no slot, on $name', (setup) => {
  let h: EngineHarness;
  let released: string[];
  const open = async (options: { clock?: ManualClock } = {}) => {
    released = [];
    h = await openEngineHarness(
      setup,
      new ScriptedRunner({ engineer: waitingScript }),
      // A long `deadAfterMs`: a moved test clock must not make the waiting turns look dead.
      { deadAfterMs: 24 * 60 * 60_000 },
      {
        tools: createToolKit([releaseTool(released)]),
        concurrency: 4,
        ...(options.clock === undefined ? {} : { clock: options.clock }),
      },
    );
    await h.read((tx) => tx.guardrails.upsert(h.local.workspace.id, COMMITS_ASK_FIRST));
  };
  afterEach(() => h?.close());

  const mention = async (text: string) => {
    await h.type('/new');
    await h.type(`@engineer ${text}`);
  };
  const cards = () => cardsOf(h.platform.threads.list());
  const replies = () =>
    h.platform.threads
      .list()
      .flatMap((t) => t.entries.map(describeEntry))
      .filter((line) => line.startsWith('engineer: '));

  it(`T1, T3: with ${APPROVALS} approvals and ${QUESTIONS} questions pending and 4 slots, a new mention is answered; then every approval and question resolves`, async () => {
    await open();
    for (let i = 0; i < APPROVALS; i++) await mention(`release r${i}`);
    for (let i = 0; i < QUESTIONS; i++) await mention(`question q${i}`);
    await waitFor(async () => {
      const { approvals, questions } = cards();
      return approvals.length === APPROVALS && questions.length === QUESTIONS;
    }, 120_000);
    // Every waiting turn gave its slot back.
    await waitFor(async () => h.engine.slotStats().suspended === APPROVALS + QUESTIONS);
    expect(h.engine.slotStats()).toMatchObject({ capacity: 4, active: 0, waiting: 0 });

    await mention('say hi');
    await waitFor(async () => replies().includes('engineer: hello'));

    // G4: approve the even ones, deny the odd ones; N13: answer every question.
    const { approvals, questions } = cards();
    for (const [i, approval] of approvals.entries()) {
      expect(
        await h.engine.act(
          { kind: 'approval', approvalId: approval.id, verdict: i % 2 === 0 ? 'approve' : 'deny' },
          you,
        ),
      ).toEqual({
        ok: true,
      });
    }
    for (const question of questions) {
      expect(await h.engine.act({ kind: 'answer', questionId: question.id, answer: '2' }, you)).toEqual({
        ok: true,
      });
    }
    const runs = await h.settled(APPROVALS + QUESTIONS + 1);
    expect(runs.every((r) => r.status === 'succeeded')).toBe(true);

    const approvedTags = approvals.flatMap((_, i) => (i % 2 === 0 ? [`r${i}`] : []));
    expect([...released].sort()).toEqual([...approvedTags].sort());
    const lines = replies();
    for (let i = 0; i < APPROVALS; i++) {
      expect(lines).toContainEqual(
        i % 2 === 0
          ? `engineer: r${i}: released r${i}`
          : expect.stringMatching(new RegExp(`^engineer: r${i}: Refused: a person denied`)),
      );
    }
    for (let i = 0; i < QUESTIONS; i++) expect(lines).toContain(`engineer: q${i}: Answer: right`);
    // Each slot is given back once its lane has nothing more queued (just after the run ends).
    await waitFor(async () => {
      const { active, waiting, suspended } = h.engine.slotStats();
      return active + waiting + suspended === 0;
    });
  }, 240_000);

  it('G4, T1: an unanswered approval expires on the clock and counts as denied, with nothing polling', async () => {
    const clock = new ManualClock();
    await open({ clock });
    await mention('release late');
    await waitFor(async () => cards().approvals.length === 1);
    await waitFor(async () => h.engine.slotStats().suspended === 1);
    // The wait armed one timer, for its expiry, and nothing else waits on the clock.
    await waitFor(async () => clock.pending() === 1);
    clock.advance(31 * 60_000);
    await h.settled(1);
    expect(cards().approvals).toEqual([{ id: expect.any(String), status: 'expired' }]);
    expect(replies()).toEqual([expect.stringMatching(/^engineer: late: Refused: a person denied/)]);
    expect(released).toEqual([]);
  });

  it('T1: on SIGTERM a suspended turn is handed back (run queued again) and starts again on the next worker', async () => {
    await open();
    await mention('release again');
    await waitFor(async () => cards().approvals.length === 1);
    await waitFor(async () => h.engine.slotStats().suspended === 1);
    await h.engine.close();
    const [handedBack] = await h.runs();
    expect(handedBack).toMatchObject({ status: 'queued', liveness: 'ok' });
    expect(h.thread(1).map(describeEntry)).toContain(
      'approval(pending) engineer wants to run: release: {"tag":"again"}',
    );
    await h.restart(); // its start-up recovery enqueues the queued run
    // It starts from the beginning: a new card, which an approver answers this time.
    await waitFor(async () => cards().approvals.filter((a) => a.status === 'pending').length === 2);
    const fresh = cards().approvals[1];
    expect(
      await h.engine.act({ kind: 'approval', approvalId: fresh?.id ?? 'none', verdict: 'approve' }, you),
    ).toEqual({ ok: true });
    await h.settled(1);
    expect(released).toEqual(['again']);
  });

  if (setup.redis) {
    it('T1: a click handled by another engine process wakes the turn waiting in this one (Redis pub/sub)', async () => {
      await open();
      await mention('release cross');
      await waitFor(async () => cards().approvals.length === 1);
      await waitFor(async () => h.engine.slotStats().suspended === 1);
      const peer = await h.openPeer();
      const [approval] = cards().approvals;
      expect(
        await peer.act({ kind: 'approval', approvalId: approval?.id ?? 'none', verdict: 'approve' }, you),
      ).toEqual({ ok: true });
      await h.settled(1);
      expect(released).toEqual(['cross']);
      expect(replies()).toEqual(['engineer: cross: released cross']);
      // The turn ran in the first engine: the peer never had it.
      expect(peer.slotStats().suspended).toBe(0);
    });
  }
});
