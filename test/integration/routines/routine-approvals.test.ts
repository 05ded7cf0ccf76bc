import type { RoutineMaker } from '../../../src/core/model/routines/routine';
import { silentLogger } from '../../../src/core/ports/logger';
import { RoutineScheduler } from '../../../src/core/routines/routine-scheduler';
import { waitFor } from '../../support/engine-harness';
import { held, ScriptedRunner } from '../../support/scripted-runner';
import { CHANNEL } from '../../support/slack-delivery';
import { openSlackHarness, type SlackHarness } from '../../support/slack-harness';

/** W4, G4: an approval asked inside a routine's turn, on Slack. */
describe('W4 an approval inside a routine’s turn', () => {
  let h: SlackHarness;
  let scheduler: RoutineScheduler;
  let turn: ReturnType<typeof held>;

  beforeEach(async () => {
    turn = held('pushed');
    h = await openSlackHarness({ runner: new ScriptedRunner({}, turn.script) });
    const engine = h.engine;
    if (engine === null) throw new Error('the harness runs an engine');
    scheduler = new RoutineScheduler({
      store: h.store,
      platforms: new Map([['slack', h.front.platform]]),
      clock: { now: () => new Date() },
      logger: silentLogger,
      wake: (job) => engine.wake(job),
      sweepMs: 200,
    });
  });
  afterEach(async () => {
    turn.release();
    await scheduler.close();
    await h.close();
  });

  const saveRelease = (madeBy: RoutineMaker | null) =>
    h.store.transaction(async (tx) => {
      const engineer = await tx.agents.findByName(h.local.workspace.id, 'engineer');
      if (engineer === null) throw new Error('engineer is seeded');
      await tx.routines.save(
        { workspaceId: h.local.workspace.id, spaceId: h.local.space.id, agentId: engineer.id },
        {
          name: 'release',
          agent: 'engineer',
          prompt: 'Push the release branch.',
          trigger: { kind: 'webhook' },
          onMissed: 'runOnce',
          budget: null,
          paused: false,
        },
        new Date(Date.now() - 1000),
        madeBy,
      );
    });
  /** The routine fires; its turn asks for an approval (50 ms to expiry); the card as posted. */
  const askInRoutine = async () => {
    await scheduler.wakeNow();
    await turn.started;
    const [run] = await h.runs();
    const engine = h.engine;
    if (run === undefined || engine === null) throw new Error('the routine started a run');
    const approval = await engine.requestApproval({
      runId: run.id,
      action: 'push_to_remote',
      details: { summary: 'push release to origin', lines: [] },
      ttlMs: 50,
    });
    const card = await waitFor(
      async () =>
        h.standIn.messages.find(
          (m) => m.channel === CHANNEL && JSON.stringify(m.blocks ?? []).includes('push release'),
        ) ?? null,
    );
    return { engine, approval, card };
  };

  it('W4 its card names the routine and its maker; past the expiry it is denied, never allowed', async () => {
    await saveRelease(null);
    const { engine, approval, card } = await askInRoutine();
    expect(JSON.stringify(card.blocks)).toContain(
      'Asked in routine general/release (declared in the workspace file); it waits for a person.',
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    await engine.expireApprovals();
    // G4: an unanswered approval counts as denied: a routine never decides its own.
    expect(await engine.approvalState(approval.id)).toBe('deny');
  });

  it('W4 a routine made from chat: its card names who proposed it and who confirmed it', async () => {
    await saveRelease({ proposedBy: 'engineer', confirmedBy: 'dana' });
    const { card } = await askInRoutine();
    expect(JSON.stringify(card.blocks)).toContain(
      'Asked in routine general/release (proposed by @engineer, confirmed by dana); it waits for a person.',
    );
  });
});
