import type { Redis } from 'ioredis';
import { createRedisClient } from '../../../src/adapters/redis/redis-connection-options';
import type { RoutineSpec } from '../../../src/core/model/routines/routine';
import { silentLogger } from '../../../src/core/ports/logger';
import { RoutineScheduler } from '../../../src/core/routines/routine-scheduler';
import { waitFor } from '../../support/engine-harness';
import { ScriptedRunner } from '../../support/scripted-runner';
import { CHANNEL } from '../../support/slack-delivery';
import { openSlackHarness, type SlackHarness } from '../../support/slack-harness';
import { deleteKeysUnder, freshPrefix, TEST_REDIS_URL } from '../queue/redis-test-prefix';

const QUEUE_MODES = [
  { name: 'PGlite + in-process queue', database: 'pglite', redis: false },
  { name: 'PostgreSQL + BullMQ', database: 'postgres', redis: true },
] as const;

const spec = (fields: Partial<RoutineSpec>): RoutineSpec => ({
  name: 'nightly',
  agent: 'qa',
  prompt: 'Summarize the failures of the night',
  trigger: { kind: 'at', at: '2030-01-01T00:00:00Z' },
  onMissed: 'runOnce',
  budget: null,
  paused: false,
  ...fields,
});

describe.each(QUEUE_MODES)('W2, T6 a routine fires as a turn on $name', (mode) => {
  let h: SlackHarness;
  let redis: Redis | null = null;
  let prefix: string;
  let prompts: string[];
  const schedulers: RoutineScheduler[] = [];

  beforeEach(async () => {
    prompts = [];
    prefix = freshPrefix('routines');
    if (mode.redis) redis = createRedisClient(TEST_REDIS_URL);
    h = await openSlackHarness({
      database: mode.database,
      ...(mode.redis ? { queue: { redisUrl: TEST_REDIS_URL, prefix } } : {}),
      runner: new ScriptedRunner({}, (request) => {
        prompts.push((request.prompt.split('## Prompt').pop() ?? '').trim());
        return [{ type: 'final', text: 'Two tests failed overnight.' }];
      }),
    });
  });
  afterEach(async () => {
    for (const scheduler of schedulers.splice(0)) await scheduler.close();
    await h.close();
    if (redis !== null) {
      await deleteKeysUnder(redis, prefix);
      await redis.quit();
      redis = null;
    }
  });

  const scheduler = () => {
    const engine = h.engine;
    if (engine === null) throw new Error('the harness runs an engine');
    const made = new RoutineScheduler({
      store: h.store,
      platforms: new Map([['slack', h.front.platform]]),
      clock: { now: () => new Date() },
      logger: silentLogger,
      wake: (job) => engine.wake(job),
      sweepMs: 200,
    });
    schedulers.push(made);
    return made;
  };

  const save = (fields: Partial<RoutineSpec>, nextDueAt: Date | null) =>
    h.store.transaction(async (tx) => {
      const qa = await tx.agents.findByName(h.local.workspace.id, 'qa');
      if (qa === null) throw new Error('qa is seeded');
      return tx.routines.save(
        { workspaceId: h.local.workspace.id, spaceId: h.local.space.id, agentId: qa.id },
        spec(fields),
        nextDueAt,
      );
    });
  const history = (routineId: string) => h.read((tx) => tx.routines.history(routineId, 10));
  const heads = () =>
    h.standIn.messages.filter((m) => m.channel === CHANNEL && m.text.startsWith('Routine '));

  it('W2 a routine `at` a few seconds ahead fires once, in a new thread of the space’s channel, under the agent’s name', async () => {
    const at = new Date(Date.now() + 1500);
    const routine = await save({ trigger: { kind: 'at', at: at.toISOString() } }, at);
    scheduler().start();
    const [firing] = await waitFor(async () => {
      const found = await history(routine.id);
      return found[0]?.runStatus === 'succeeded' ? found : null;
    });
    expect(firing).toMatchObject({ outcome: 'started', scheduledFor: at, missed: [] });
    expect(heads()).toEqual([
      expect.objectContaining({
        username: 'qa',
        text: `Routine nightly · once at ${at.toISOString()}`,
        threadTs: null,
      }),
    ]);
    const head = heads()[0];
    const reply = h.standIn
      .inThread(CHANNEL, head?.ts ?? '')
      .find((m) => m.username === 'qa' && m.text === 'Two tests failed overnight.');
    expect(reply).toBeDefined();
    expect(firing?.replyRef).toBe(reply?.ts);
    expect(prompts).toEqual(['Summarize the failures of the night']);
    // W2: the next time comes from the stored schedule: a one-time routine has none.
    const [stored] = await h.read((tx) => tx.routines.listForWorkspace(h.local.workspace.id));
    expect(stored?.nextDueAt).toBeNull();
  });

  it('W2 two schedulers sweeping the same due routines fire each once', async () => {
    const due = new Date(Date.now() - 1000);
    const routines = [];
    for (const name of ['a', 'b', 'c', 'd'])
      routines.push(
        await save({ name, trigger: { kind: 'schedule', cron: '0 0 1 1 *', timezone: 'UTC' } }, due),
      );
    const [one, two] = [scheduler(), scheduler()];
    await Promise.all([one.wakeNow(), two.wakeNow(), one.wakeNow(), two.wakeNow()]);
    await waitFor(async () => {
      const runs = await h.runs();
      return runs.length === 4 && runs.every((r) => r.status === 'succeeded');
    });
    for (const routine of routines) expect(await history(routine.id)).toHaveLength(1);
    expect(heads()).toHaveLength(4);
  });

  it('W3 after downtime, runOnce fires once for all the missed times and skip fires none; both listed', async () => {
    // Hourly routines last due three and a half hours ago: the deployment was down since.
    const hourly = { kind: 'schedule', cron: '0 * * * *', timezone: 'UTC' } as const;
    const hour = 3600_000;
    const due = new Date((Math.floor(Date.now() / hour) - 3) * hour);
    const once = await save({ name: 'once', trigger: hourly, onMissed: 'runOnce' }, due);
    const skip = await save({ name: 'skip', trigger: hourly, onMissed: 'skip' }, due);
    await scheduler().wakeNow();
    const [fired] = await waitFor(async () => {
      const found = await history(once.id);
      return found[0]?.runStatus === 'succeeded' ? found : null;
    });
    const expectedMissed = [0, 1, 2, 3].map((n) => new Date(due.getTime() + n * hour));
    expect(fired).toMatchObject({
      outcome: 'started',
      missed: expectedMissed,
      scheduledFor: expectedMissed[3],
    });
    expect(await history(skip.id)).toEqual([
      expect.objectContaining({ outcome: 'skipped', missed: expectedMissed, runId: null }),
    ]);
    expect(await h.runs()).toHaveLength(1);
    expect(heads()).toHaveLength(1);
    // W2: both are next due at the next hour, from the schedule.
    const next = new Date(due.getTime() + 4 * hour);
    const stored = await h.read((tx) => tx.routines.listForWorkspace(h.local.workspace.id));
    expect(stored.map((r) => r.nextDueAt)).toEqual([next, next]);
  });

  it('W4 a used-up routine budget stops its firings and says so once in the channel', async () => {
    const due = () => new Date(Date.now() - 1000);
    const routine = await save(
      { trigger: { kind: 'webhook' }, budget: { per: 'day', unit: 'tokens', limit: 1000 } },
      due(),
    );
    const sweeper = scheduler();
    await sweeper.wakeNow();
    const [first] = await waitFor(async () => {
      const found = await history(routine.id);
      return found[0]?.runStatus === 'succeeded' ? found : null;
    });
    await h.read((tx) =>
      tx.usage.addToRun(first?.runId ?? '', {
        model: 'claude-sonnet-4-6',
        usage: { inputTokens: 900, outputTokens: 200, cacheReadTokens: 0, cacheWriteTokens: 0 },
        costUsd: 0.01,
      }),
    );
    const notices = () => h.standIn.messages.filter((m) => m.text.startsWith('Routine nightly did not fire'));
    for (const _ of [1, 2]) {
      await h.store.transaction((tx) => tx.routines.setNextDue(routine.id, due()));
      await sweeper.wakeNow();
    }
    await waitFor(async () => notices().length === 1);
    expect(notices()[0]?.text).toBe(
      "Routine nightly did not fire: its budget of 1,000 tokens a day is used up (1,100 tokens today). It fires again after the budget resets at midnight UTC; to raise it, change the routine's `budget` in the workspace file and run `summon apply`.",
    );
    expect((await history(routine.id)).map((f) => f.outcome)).toEqual([
      'over_budget',
      'over_budget',
      'started',
    ]);
    expect(await h.runs()).toHaveLength(1);
  });

  it('W2 a paused routine does not fire', async () => {
    await save({ paused: true }, new Date(Date.now() - 1000));
    await scheduler().wakeNow();
    expect(await h.runs()).toEqual([]);
    expect(heads()).toEqual([]);
  });
});
