import { OPERATOR_ACTOR } from '../../../src/core/model/audit/audit-event';
import type { RoutineSpec } from '../../../src/core/model/routines/routine';
import { silentLogger } from '../../../src/core/ports/logger';
import { changeRoutine, findRoutine } from '../../../src/core/routines/routine-control';
import { RoutineScheduler } from '../../../src/core/routines/routine-scheduler';
import { waitFor } from '../../support/engine-harness';
import { ScriptedRunner } from '../../support/scripted-runner';
import { fixture } from '../../support/slack-delivery';
import { openSlackHarness, PEOPLE, type SlackHarness } from '../../support/slack-harness';

/** W5, P17, O4: `/summon routines` on Slack, through the real front end and the shared command layer. */
describe('W5 /summon routines', () => {
  let h: SlackHarness;
  let scheduler: RoutineScheduler;
  let routineId: string;

  beforeEach(async () => {
    h = await openSlackHarness({
      runner: new ScriptedRunner({}, () => [{ type: 'final', text: 'done' }]),
    });
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
    const spec: RoutineSpec = {
      name: 'nightly',
      agent: 'qa',
      prompt: 'Summarize the night',
      trigger: { kind: 'schedule', cron: '0 9 * * 1-5', timezone: 'Europe/Prague' },
      onMissed: 'runOnce',
      budget: null,
      paused: false,
    };
    routineId = await h.store.transaction(async (tx) => {
      const qa = await tx.agents.findByName(h.local.workspace.id, 'qa');
      if (qa === null) throw new Error('qa is seeded');
      const target = { workspaceId: h.local.workspace.id, spaceId: h.local.space.id, agentId: qa.id };
      return (await tx.routines.save(target, spec, new Date('2030-01-07T08:00:00Z'))).id;
    });
  });
  afterEach(async () => {
    await scheduler.close();
    await h.close();
  });

  const summon = async (text: string, userId: string = PEOPLE.dana.userId) => {
    const response = await h.deliver({ ...fixture('slash-command'), text, user_id: userId });
    expect(response.status).toBe(200);
    return (JSON.parse(response.body) as { text: string }).text;
  };
  const audited = () =>
    h.read(
      async (tx) => (await tx.audit.page(h.local.workspace.id, { kind: 'routine_changed' }, null, 50)).events,
    );
  const due = () =>
    h.store.transaction((tx) => tx.routines.setNextDue(routineId, new Date(Date.now() - 1000)));

  it('W5 lists the space’s routines with next time and last result, for any member', async () => {
    expect(await summon('routines', PEOPLE.mia.userId)).toBe(
      [
        `Routines of space *${h.local.space.name}*:`,
        '• *nightly* (@qa, on weekdays at 09:00 (Europe/Prague)): next 2030-01-07T08:00:00.000Z; last: never fired',
      ].join('\n'),
    );
  });

  it('W5 pause, resume, run and delete are for owners, admins and approvers; a member is refused', async () => {
    expect(await summon('routines pause nightly', PEOPLE.mia.userId)).toBe(
      'Only owners, admins and approvers can pause a routine; your role is member.',
    );
    expect(await summon('routines pause nightly')).toBe(
      `Routine ${h.local.space.name}/nightly paused; it fires nothing until resumed.`,
    );
    // W5: paused, a due time fires nothing.
    await due();
    await scheduler.wakeNow();
    expect(await h.runs()).toEqual([]);
    expect(await summon('routines')).toMatch(/nightly\* .*: paused; last: never fired/);
    expect(await summon('routines run nightly')).toBe(
      `Routine ${h.local.space.name}/nightly is paused; resume it first.`,
    );
    expect(await summon('routines resume nightly')).toMatch(/resumed; next at \d{4}-/);
    expect(await summon('routines run nightly')).toMatch(/is due now/);
    await scheduler.wakeNow();
    await waitFor(async () => ((await h.runs())[0]?.status === 'succeeded' ? true : null));
    expect(await summon('routines')).toMatch(/last: succeeded \(/);
    expect(await summon('routines delete nightly', PEOPLE.vic.userId)).toMatch(/your role is viewer/);
    expect(await summon('routines delete ghost')).toMatch(/There is no routine "ghost" in space/);
    expect(await summon('routines delete nightly')).toBe(`Routine ${h.local.space.name}/nightly deleted.`);
    expect(await summon('routines')).toMatch(/has no routines/);
    // O4: each change is recorded with who made it and where; refused ones record nothing.
    expect((await audited()).map((e) => [e.detail.change, e.actor.name, e.where, e.subject])).toEqual(
      ['pause', 'resume', 'run', 'delete'].map((change) => [
        change,
        'dana',
        'slack',
        `routine ${h.local.space.name}/nightly`,
      ]),
    );
  });

  it('O4 a change rolled back leaves no audit row behind; committed, it leaves one', async () => {
    const change = (fail: boolean) =>
      h.read(async (tx) => {
        const routine = await findRoutine(tx, h.local.workspace.id, 'nightly', h.local.space.name);
        await changeRoutine(tx, routine, 'delete', new Date(), { actor: OPERATOR_ACTOR, where: 'cli' });
        if (fail) throw new Error('the transaction fails after the change');
      });
    await expect(change(true)).rejects.toThrow('the transaction fails after the change');
    expect(await audited()).toEqual([]);
    expect((await h.read((tx) => tx.routines.findById(routineId)))?.name).toBe('nightly');
    await change(false);
    expect(await audited()).toEqual([
      expect.objectContaining({
        actor: OPERATOR_ACTOR,
        where: 'cli',
        detail: expect.objectContaining({ change: 'delete', routineId }),
      }),
    ]);
  });
});
