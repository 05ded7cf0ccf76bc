import { randomUUID } from 'node:crypto';
import { PassThrough } from 'node:stream';
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { createJobQueue } from '../../../src/adapters/queue/create-job-queue';
import {
  createRedisClient,
  redisConnectionOptions,
} from '../../../src/adapters/redis/redis-connection-options';
import { FileWorkspaceDirectory } from '../../../src/adapters/workspace-directory/file-workspace-directory';
import { TerminalChat, TerminalPlatform } from '../../../src/bots/terminal';
import { DEFAULT_TIMINGS } from '../../../src/core/engine/engine-timings';
import type { RunJob } from '../../../src/core/engine/run-job';
import type { TurnEngine } from '../../../src/core/engine/turn-engine';
import type { ChatEngine, ReceiveOutcome } from '../../../src/core/ports/chat-engine';
import type { Runner } from '../../../src/core/ports/runner';
import { ensureLocalChat } from '../../../src/core/workspace/local-chat';
import { ChildWorker } from '../../support/child-worker';
import { buildEngine, describeEntry, waitFor } from '../../support/engine-harness';
import { ScriptedRunner } from '../../support/scripted-runner';
import { makeTempDir } from '../../support/temp-dir';
import { openTestDatabase, type TestDatabase } from '../../support/test-database';
import { deleteKeysUnder, TEST_REDIS_URL } from '../queue/redis-test-prefix';

/** Small enough that a killed worker is found dead in about a second. */
const TIMINGS = { ...DEFAULT_TIMINGS, statusEditIntervalMs: 20, heartbeatMs: 100, deadAfterMs: 1000 };

describe('A12 a worker killed with SIGKILL mid-run (PostgreSQL + BullMQ)', () => {
  const queueName = `turns-${randomUUID().slice(0, 8)}`;
  const prefix = `summon-test-crash-${randomUUID().slice(0, 8)}`;
  let db: TestDatabase | undefined;
  let dataDir: Awaited<ReturnType<typeof makeTempDir>> | undefined;
  let child: ChildWorker | undefined;
  const engines: TurnEngine[] = [];
  /** BullMQ's own view of the queue, to look at and move the killed worker's job. */
  let rawQueue: Queue;
  let redis: Redis;

  beforeAll(() => {
    rawQueue = new Queue(queueName, { connection: redisConnectionOptions(TEST_REDIS_URL), prefix });
    redis = createRedisClient(TEST_REDIS_URL);
  });
  afterEach(async () => {
    await child?.kill('SIGKILL');
    for (const engine of engines.splice(0)) await engine.close();
    await db?.dispose();
    await dataDir?.remove();
  });
  afterAll(async () => {
    await rawQueue.close();
    await deleteKeysUnder(redis, prefix);
    await redis.quit();
  });

  it('the run becomes dead and its thread says so; every other accepted message is answered, once', async () => {
    db = await openTestDatabase('postgres');
    dataDir = await makeTempDir();
    const { store } = db.database;
    await store.transaction((tx) => ensureLocalChat(tx));
    const now = () => new Date();
    // The chat service both processes post to (as they would share one Slack).
    const platform = new TerminalPlatform({ output: new PassThrough(), now });
    const engineWith = (runner: Runner) => {
      const engine = buildEngine({
        store,
        platform,
        queue: createJobQueue<RunJob>({ name: queueName, redisUrl: TEST_REDIS_URL, prefix }),
        runners: () => runner,
        directory: new FileWorkspaceDirectory(dataDir?.path ?? ''),
        timings: TIMINGS,
        clock: { now },
      });
      engines.push(engine);
      return engine;
    };
    // The front end stores and enqueues what people type; it is never started, so it takes no job.
    const frontEnd = engineWith(new ScriptedRunner({}));
    const chat = new TerminalChat({
      input: new PassThrough(),
      platform,
      engine: frontEnd,
      now,
      newId: randomUUID,
    });
    const runs = () =>
      store.transaction((tx) => tx.runs.listByStatus(['queued', 'running', 'succeeded', 'failed']));
    const agentOf = async (name: string) => {
      const local = await store.transaction((tx) => ensureLocalChat(tx));
      const agent = await store.inWorkspace(local.workspace.id, (tx) =>
        tx.agents.findByName(local.workspace.id, name),
      );
      return agent?.id ?? `missing ${name}`;
    };
    const thread = (n: number) =>
      (platform.threads.list().find((t) => t.number === n)?.entries ?? []).map(describeEntry);

    child = ChildWorker.start(
      {
        WORKER_DATABASE_URL: db.databaseUrl ?? '',
        WORKER_REDIS_URL: TEST_REDIS_URL,
        WORKER_QUEUE: queueName,
        WORKER_PREFIX: prefix,
        WORKER_DATA_DIR: dataDir.path,
        WORKER_HEARTBEAT_MS: String(TIMINGS.heartbeatMs),
        WORKER_DEAD_AFTER_MS: String(TIMINGS.deadAfterMs),
      },
      platform,
    );
    await child.waitForLine(/^WORKER_READY$/);

    await chat.handleLine('@engineer long task');
    const [, engineerRun = ''] = await child.waitForLine(/^RUN_STARTED (\S+) engineer$/);
    await chat.handleLine('/new');
    await chat.handleLine('@qa check the build');
    await chat.handleLine('/new');
    await chat.handleLine('@architect review the design');
    await new Promise((resolve) => setTimeout(resolve, 200));
    // Accepted and waiting in Redis: the worker takes one turn at a time, and it is busy.
    const [engineer, qa, architect] = [
      await agentOf('engineer'),
      await agentOf('qa'),
      await agentOf('architect'),
    ];
    const before = await runs();
    expect(before.map((r) => [r.agentId, r.status])).toEqual([
      [engineer, 'running'],
      [qa, 'queued'],
      [architect, 'queued'],
    ]);
    expect(before[0]?.id).toBe(engineerRun);
    expect(thread(1)).toEqual(['you: @engineer long task', 'status(working) engineer']);

    // Killed mid-run, once its card is known (a kill before that is the next test's case).
    await waitFor(async () => {
      const run = await store.transaction((tx) => tx.runs.findById(engineerRun));
      return run?.statusCardRef != null;
    });
    expect(await child.kill('SIGKILL')).toEqual({ code: null, signal: 'SIGKILL' });

    // The restarted worker: this one answers at once.
    const restarted = new ScriptedRunner({}, (request) => [
      { type: 'final', text: `${request.agent.name} here` },
    ]);
    await engineWith(restarted).start({ concurrency: 4 });

    const dead = await waitFor(async () => {
      const run = await store.transaction((tx) => tx.runs.findById(engineerRun));
      return run?.status === 'failed' ? run : null;
    });
    expect(dead).toMatchObject({ liveness: 'dead', error: 'the worker running this turn stopped' });
    const told =
      "system: engineer's turn was interrupted because the worker running it stopped. Mention @engineer again to retry.";
    // The thread is told, and the killed worker's status card is closed as failed.
    const toldAndClosed = ['you: @engineer long task', 'status(failed) engineer', told];
    await waitFor(
      async () => thread(1).join('\n') === toldAndClosed.join('\n'),
      30_000,
      () => `; thread 1 reads ${JSON.stringify(thread(1))}`,
    );

    // Nothing accepted was lost: the turns queued behind the killed one are answered, once each.
    const after = await waitFor(async () => {
      const all = await runs();
      return all.every((r) => r.status !== 'queued' && r.status !== 'running') ? all : null;
    });
    expect(after.map((r) => [r.agentId, r.status, r.liveness])).toEqual([
      [engineer, 'failed', 'dead'],
      [qa, 'succeeded', 'ok'],
      [architect, 'succeeded', 'ok'],
    ]);
    await waitFor(
      async () => thread(3).includes('architect: architect here') && thread(2).includes('qa: qa here'),
    );
    expect(thread(2)).toEqual(['you: @qa check the build', 'status(done) qa', 'qa: qa here']);
    expect(thread(3)).toEqual([
      'you: @architect review the design',
      'status(done) architect',
      'architect: architect here',
    ]);

    // BullMQ's stalled check hands the killed job to a worker again once its 30 s lock expires.
    // Do now what it does then: the job goes back to waiting, and the restarted worker gets it.
    const job = await rawQueue.getJob(engineerRun);
    expect(await job?.getState()).toBe('active'); // still held by the dead worker's lock
    const lock = await redis.get(`${rawQueue.toKey(engineerRun)}:lock`);
    expect(lock).not.toBeNull();
    await job?.moveToWait(lock ?? undefined);
    await waitFor(async () => (await rawQueue.getJob(engineerRun)) === undefined); // taken and completed

    // The dead run is not run again, by anyone.
    expect(child.lines.filter((line) => line.startsWith('RUN_STARTED'))).toHaveLength(1);
    expect(restarted.requests.map((r) => r.agent.name).sort()).toEqual(['architect', 'qa']);
    expect(await store.transaction((tx) => tx.runs.findById(engineerRun))).toMatchObject({
      status: 'failed',
      liveness: 'dead',
    });
    expect(thread(1)).toEqual(toldAndClosed);
  });

  it('T2, T3, P9: a turn the killed process routed and started itself (no queue job) is marked dead the same way, its card found in the thread though its ref was never stored', async () => {
    db = await openTestDatabase('postgres');
    dataDir = await makeTempDir();
    const { store } = db.database;
    await store.transaction((tx) => ensureLocalChat(tx));
    const now = () => new Date();
    const platform = new TerminalPlatform({ output: new PassThrough(), now });
    const thread = (n: number) =>
      (platform.threads.list().find((t) => t.number === n)?.entries ?? []).map(describeEntry);
    child = ChildWorker.start(
      {
        WORKER_DATABASE_URL: db.databaseUrl ?? '',
        WORKER_REDIS_URL: TEST_REDIS_URL,
        WORKER_QUEUE: queueName,
        WORKER_PREFIX: prefix,
        WORKER_DATA_DIR: dataDir.path,
        WORKER_HEARTBEAT_MS: String(TIMINGS.heartbeatMs),
        WORKER_DEAD_AFTER_MS: String(TIMINGS.deadAfterMs),
      },
      platform,
    );
    await child.waitForLine(/^WORKER_READY$/);
    const worker = child;
    // The person's messages reach the child's own engine, which runs turns (role `all`).
    const notHere = () => Promise.reject(new Error('not used in this test'));
    const viaChild: ChatEngine = {
      receive: async (message) => {
        const seen = worker.lines.length;
        worker.receive(message);
        await waitFor(
          async () => worker.lines.length > seen && worker.lines.some((l) => l.startsWith('RECEIVED')),
        );
        const line = worker.lines.find((l) => l.startsWith('RECEIVED')) ?? '';
        return JSON.parse(line.slice('RECEIVED '.length)) as ReceiveOutcome;
      },
      act: notHere,
    };
    const chat = new TerminalChat({
      input: new PassThrough(),
      platform,
      engine: viaChild,
      now,
      newId: randomUUID,
    });

    await chat.handleLine('@engineer long task');
    const [, runId = ''] = await child.waitForLine(/^RUN_STARTED (\S+) engineer$/);
    // T3: started in the process that routed it, without the queue: BullMQ never had its job.
    expect(await rawQueue.getJob(runId)).toBeUndefined();
    expect(await rawQueue.getJobCounts('waiting', 'active', 'delayed')).toEqual({
      waiting: 0,
      active: 0,
      delayed: 0,
    });
    expect(thread(1)).toEqual(['you: @engineer long task', 'status(working) engineer']);

    // Killed mid-run, once its card has been posted.
    await waitFor(async () => {
      const run = await store.transaction((tx) => tx.runs.findById(runId));
      return run?.statusCardRef != null;
    });
    expect(await child.kill('SIGKILL')).toEqual({ code: null, signal: 'SIGKILL' });
    // As if the kill had come between the card's post and the commit of its ref: only the
    // thread knows the card, and the restart reads it back there (P9, T2).
    await db.database.dataSource.query('UPDATE runs SET status_card_ref = NULL WHERE id = $1', [runId]);
    await db.database.dataSource.query(
      'UPDATE run_checkpoints SET status_card_ref = NULL WHERE run_id = $1',
      [runId],
    );

    // A12: the next worker finds its heartbeat stopped and marks it dead, as for a queue job's turn.
    const restarted = new ScriptedRunner({}, (request) => [
      { type: 'final', text: `${request.agent.name} here` },
    ]);
    const engine = buildEngine({
      store,
      platform,
      queue: createJobQueue<RunJob>({ name: queueName, redisUrl: TEST_REDIS_URL, prefix }),
      runners: () => restarted,
      directory: new FileWorkspaceDirectory(dataDir.path),
      timings: TIMINGS,
      clock: { now },
    });
    engines.push(engine);
    await engine.start({ concurrency: 4 });
    const dead = await waitFor(async () => {
      const run = await store.transaction((tx) => tx.runs.findById(runId));
      return run?.status === 'failed' ? run : null;
    });
    expect(dead).toMatchObject({ liveness: 'dead', error: 'the worker running this turn stopped' });
    const told =
      "system: engineer's turn was interrupted because the worker running it stopped. Mention @engineer again to retry.";
    await waitFor(
      async () =>
        thread(1).join('\n') === ['you: @engineer long task', 'status(failed) engineer', told].join('\n'),
      30_000,
      () => `; thread 1 reads ${JSON.stringify(thread(1))}`,
    );
    expect(restarted.requests).toHaveLength(0);
  });
});
