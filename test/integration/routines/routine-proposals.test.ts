import type { Redis } from 'ioredis';
import { createRedisClient } from '../../../src/adapters/redis/redis-connection-options';
import { ACTIONS } from '../../../src/bots/slack/outbound/slack-cards';
import { createToolKit } from '../../../src/core/engine/tool-kit/turn-tool-kit';
import { silentLogger } from '../../../src/core/ports/logger';
import type { RunnerRequest } from '../../../src/core/ports/runner';
import type { ToolOutcome } from '../../../src/core/ports/turn-tools';
import { RoutineScheduler } from '../../../src/core/routines/routine-scheduler';
import { waitFor } from '../../support/engine-harness';
import { type Script, ScriptedRunner } from '../../support/scripted-runner';
import { buttonValue, clickPayload } from '../../support/slack-clicks';
import { CHANNEL, eventFrom } from '../../support/slack-delivery';
import { openSlackHarness, PEOPLE, type SlackHarness } from '../../support/slack-harness';
import type { StoredSlackMessage } from '../../support/stand-ins/slack-web-api-stand-in';
import { deleteKeysUnder, freshPrefix, TEST_REDIS_URL } from '../queue/redis-test-prefix';

const QUEUE_MODES = [
  { name: 'PGlite + in-process queue', database: 'pglite', redis: false },
  { name: 'PostgreSQL + BullMQ', database: 'postgres', redis: true },
] as const;

type Proposal = Record<string, unknown>;

/** W1: engineer calls schedule_routine once per proposal, in order, and keeps what it was told. */
const proposing = (proposals: () => readonly Proposal[], told: ToolOutcome[]): Script =>
  async function* (request: RunnerRequest) {
    for (const [i, input] of proposals().entries()) {
      const callId = `propose-${i}`;
      yield { type: 'tool_start', callId, tool: 'schedule_routine', summary: String(input.name) };
      const outcome = await request.tools.call({ callId, name: 'schedule_routine', input }, request.signal);
      told.push(outcome);
      yield { type: 'tool_end', callId, ok: outcome.ok };
    }
    yield { type: 'final', text: 'Proposed.' };
  };

describe.each(QUEUE_MODES)('W1 a routine proposed from chat on $name', (mode) => {
  let h: SlackHarness;
  let redis: Redis | null = null;
  let prefix: string;
  let scheduler: RoutineScheduler | null = null;
  let told: ToolOutcome[];
  let events = 0;

  const open = async (proposals: () => readonly Proposal[]) => {
    told = [];
    prefix = freshPrefix('routine-proposals');
    if (mode.redis) redis = createRedisClient(TEST_REDIS_URL);
    h = await openSlackHarness({
      database: mode.database,
      ...(mode.redis ? { queue: { redisUrl: TEST_REDIS_URL, prefix } } : {}),
      runner: new ScriptedRunner({
        engineer: proposing(proposals, told),
        qa: () => [{ type: 'final', text: 'Hello from the routine.' }],
      }),
      tools: createToolKit([], {}),
    });
  };
  afterEach(async () => {
    await scheduler?.close();
    scheduler = null;
    await h.close();
    if (redis !== null) {
      await deleteKeysUnder(redis, prefix);
      await redis.quit();
      redis = null;
    }
  });

  /** mia asks engineer in a new thread; resolves once its turn ended, with the thread's ts. */
  const ask = async () => {
    const ts = h.standIn.addPersonMessage(CHANNEL, null);
    events += 1;
    const text = '@engineer schedule it';
    await h.deliver(
      eventFrom('message-channel', { ts, user: PEOPLE.mia.userId, text }, `Ev0PROPOSE${events}`),
    );
    await waitFor(async () => (await h.runs()).some((r) => r.status === 'succeeded'));
    return ts;
  };
  const cardIn = (ts: string) =>
    h.standIn.inThread(CHANNEL, ts).find((m) => buttonValue(m, ACTIONS.approve) !== null) ?? null;
  /** The card as last drawn (a decision edits it in place). */
  const current = (card: StoredSlackMessage) =>
    h.standIn.messages.find((m) => m.ts === card.ts && m.channel === card.channel) ?? card;
  const click = async (card: StoredSlackMessage, person: keyof typeof PEOPLE, action: string) =>
    expect((await h.deliver(clickPayload(card, PEOPLE[person].userId, action))).status).toBe(200);
  const toldTo = (person: keyof typeof PEOPLE) =>
    h.standIn.ephemerals.filter((e) => e.user === PEOPLE[person].userId).map((e) => e.text);
  const stored = () => h.read((tx) => tx.routines.listForWorkspace(h.local.workspace.id));
  const audited = () =>
    h.read(
      async (tx) => (await tx.audit.page(h.local.workspace.id, { kind: 'routine_changed' }, null, 50)).events,
    );

  it('W1 confirmed by an approver it is stored with who proposed and who confirmed, and later fires; a member’s click is refused', async () => {
    let at = '';
    await open(() => [{ name: 'hello', agent: 'qa', prompt: 'Say hello to the team.', at }]);
    at = new Date(Date.now() + 8000).toISOString();
    const ts = await ask();
    expect(told[0]).toEqual({
      ok: true,
      output: `Proposed routine ${h.local.space.name}/hello: its card in this thread waits for an owner, admin or approver to Confirm or Cancel it. Nothing is scheduled until then, and this turn is not told the decision; the card shows it.`,
    });
    const card = await waitFor(async () => cardIn(ts));
    const drawn = JSON.stringify(card.blocks);
    for (const shown of [
      `Once at ${at}`,
      `Next: ${new Date(at).toISOString()}`,
      'Agent: @qa',
      'Say hello to the team.',
    ])
      expect(drawn).toContain(shown);
    expect(drawn).toContain('"text":"Confirm"');
    expect(drawn).toContain('"text":"Cancel"');

    // G4, P5: a plain member's click is refused, to them only; the card stays and nothing is stored.
    await click(card, 'mia', ACTIONS.approve);
    await waitFor(async () => toldTo('mia').length > 0);
    expect(toldTo('mia')[0]).toMatch(/^Your role is member, so you cannot decide this request/);
    expect(await stored()).toEqual([]);
    expect(buttonValue(current(card), ACTIONS.approve)).not.toBeNull();

    // The card as posted, with its buttons: a click that was on its way while it was decided.
    const asPosted = { ...card, blocks: card.blocks };
    await click(card, 'dana', ACTIONS.approve);
    const [routine] = await waitFor(async () => {
      const found = await stored();
      return found.length > 0 ? found : null;
    });
    expect(routine).toMatchObject({
      name: 'hello',
      agent: 'qa',
      trigger: { kind: 'at', at },
      madeBy: { proposedBy: 'engineer', confirmedBy: 'dana' },
      nextDueAt: new Date(at),
    });
    await waitFor(async () => JSON.stringify(current(card).blocks).includes('Confirmed by @dana'));
    expect(buttonValue(current(card), ACTIONS.approve)).toBeNull();
    // O4: the confirmation is recorded with the routine, by the member who confirmed it.
    expect(await audited()).toEqual([
      expect.objectContaining({
        actor: expect.objectContaining({ kind: 'member', name: 'dana' }),
        subject: `routine ${h.local.space.name}/hello`,
        where: 'slack',
        detail: expect.objectContaining({ change: 'created', proposedBy: 'engineer' }),
      }),
    ]);
    // First click wins: a second one after the decision is refused and stores nothing again.
    await click(asPosted, 'dana', ACTIONS.deny);
    await waitFor(async () => toldTo('dana').length > 0);
    expect(toldTo('dana')[0]).toMatch(/already approved by you/);
    expect(await stored()).toHaveLength(1);

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
    scheduler.start();
    const [firing] = await waitFor(async () => {
      const history = await h.read((tx) => tx.routines.history(routine?.id ?? '', 5));
      return history[0]?.runStatus === 'succeeded' ? history : null;
    }, 30_000);
    expect(firing).toMatchObject({ outcome: 'started', scheduledFor: new Date(at) });
    expect(h.standIn.messages.filter((m) => m.text.startsWith('Routine hello'))).toEqual([
      expect.objectContaining({ username: 'qa', text: `Routine hello · once at ${at}` }),
    ]);
  }, 60_000);

  it('W1 the card shows the schedule in words, its time zone and next three times; Cancel stores nothing', async () => {
    const budget = { per: 'day', tokens: 50_000 };
    await open(() => [
      {
        name: 'standup',
        prompt: 'Sum up yesterday.',
        schedule: '0 9 * * 1-5',
        timezone: 'Europe/Prague',
        budget,
      },
    ]);
    const ts = await ask();
    const card = await waitFor(async () => cardIn(ts));
    const drawn = JSON.stringify(card.blocks);
    const approval = await h.read((tx) => tx.approvals.findById(buttonValue(card, ACTIONS.approve) ?? ''));
    const next = approval?.details.lines.find((line) => line.startsWith('Next: ')) ?? '';
    // Three weekday mornings at 09:00 in Prague: 08:00 UTC in winter, 07:00 in summer.
    expect(next).toMatch(/^Next: (\d{4}-\d\d-\d\dT0[78]:00:00\.000Z(, |$)){3}/);
    for (const shown of [
      'Schedule: on weekdays at 09:00',
      'Time zone: Europe/Prague',
      'Agent: @engineer',
      'Budget: 50,000 tokens a day',
      'routine general/standup, proposed by engineer',
    ])
      expect(drawn).toContain(shown);

    await click(card, 'dana', ACTIONS.deny);
    await waitFor(async () => JSON.stringify(current(card).blocks).includes('Cancelled by @dana'));
    expect(await stored()).toEqual([]);
    expect(await audited()).toEqual([]);
  });

  it('W1 an invalid proposal is answered with the sentence naming the field, and no card is posted', async () => {
    const soon = new Date(Date.now() + 3_600_000).toISOString();
    await open(() => [
      { name: 'a', prompt: 'p', schedule: '0 25 * * *' },
      { name: 'b', prompt: 'p', schedule: '0 9 * * *', timezone: 'Mars/Olympus' },
      { name: 'c', prompt: 'p', at: '2020-01-01T09:00:00Z' },
      { name: 'd', prompt: 'p', agent: 'ghost', at: soon },
      { name: 'e', prompt: 'p', schedule: '0 9 * * *', at: soon },
    ]);
    const ts = await ask();
    expect(told.map((t) => t.ok)).toEqual([false, false, false, false, false]);
    const outputs = told.map((t) => t.output);
    expect(outputs[0]).toMatch(
      /^schedule_routine refused, nothing was posted: `schedule` is not a valid cron expression/,
    );
    expect(outputs[1]).toBe(
      'schedule_routine refused, nothing was posted: `timezone` "Mars/Olympus" is not a known IANA time zone (such as "Europe/Prague" or "UTC").',
    );
    expect(outputs[2]).toBe(
      'schedule_routine refused, nothing was posted: `at` 2020-01-01T09:00:00Z is in the past; give a time ahead.',
    );
    expect(outputs[3]).toBe(
      `schedule_routine refused, nothing was posted: \`agent\` "ghost" does not take part in space "${h.local.space.name}"; add it to the space's participants.`,
    );
    expect(outputs[4]).toBe(
      'schedule_routine refused, nothing was posted: `at` a routine has exactly one trigger; this one also has schedule.',
    );
    await h.front.deliverer.drain();
    expect(cardIn(ts)).toBeNull();
    expect(await h.read((tx) => tx.approvals.listPendingDue(new Date('2100-01-01')))).toEqual([]);
  });
});
