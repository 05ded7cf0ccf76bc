import { randomUUID } from 'node:crypto';
import { PassThrough } from 'node:stream';
import type { Redis } from 'ioredis';
import { createJobQueue } from '../../../src/adapters/queue/create-job-queue';
import { createRedisClient } from '../../../src/adapters/redis/redis-connection-options';
import { AnthropicRunner } from '../../../src/adapters/runners/anthropic-runner';
import { FileWorkspaceDirectory } from '../../../src/adapters/workspace-directory/file-workspace-directory';
import { TerminalChat, TerminalPlatform } from '../../../src/bots/terminal';
import { DEFAULT_TIMINGS } from '../../../src/core/engine/engine-timings';
import type { RunJob } from '../../../src/core/engine/run-job';
import type { TurnEngine } from '../../../src/core/engine/turn-engine';
import { ensureLocalChat } from '../../../src/core/workspace/local-chat';
import { ChildWorker } from '../../support/child-worker';
import { buildEngine, describeEntry, waitFor } from '../../support/engine-harness';
import { AnthropicStandIn } from '../../support/stand-ins/anthropic-stand-in';
import { makeTempDir } from '../../support/temp-dir';
import { openTestDatabase, type TestDatabase } from '../../support/test-database';
import { deleteKeysUnder, TEST_REDIS_URL } from '../queue/redis-test-prefix';

/** Small enough that a killed worker is found silent in about a second. */
const TIMINGS = { ...DEFAULT_TIMINGS, statusEditIntervalMs: 20, heartbeatMs: 100, deadAfterMs: 1000 };
const API_KEY = 'sk-ant-restart-test';
const QUESTIONS = 40;
/**
 * Threads above this number are left as a worker that died before its runner's first checkpoint
 * leaves them (claimed, `running`, no checkpoint): their checkpoints are removed after the kill.
 */
const CHECKPOINTED = 30;
/**
 * Threads above this number are left as a kill between the card's post and the commit of its
 * ref leaves them: no checkpoint and no card ref; only the thread knows the card (P9).
 */
const CARD_REF_STORED = 35;

/** The question number of a model request: each thread asks `question <n>`. */
function questionOf(body: Record<string, unknown>): string {
  return /question (\d+)/.exec(JSON.stringify(body.messages))?.[1] ?? '?';
}

describe('T2, A12: every built-in turn a SIGKILL interrupted before any tool ran answers once after the restart (PostgreSQL + BullMQ)', () => {
  let db: TestDatabase | undefined;
  let dataDir: Awaited<ReturnType<typeof makeTempDir>> | undefined;
  let child: ChildWorker | undefined;
  let standIn: AnthropicStandIn | undefined;
  const engines: TurnEngine[] = [];
  let redis: Redis;
  const queueName = `turns-${randomUUID().slice(0, 8)}`;
  const prefix = `summon-test-restart-${randomUUID().slice(0, 8)}`;

  beforeAll(() => {
    redis = createRedisClient(TEST_REDIS_URL);
  });
  afterEach(async () => {
    await child?.kill('SIGKILL');
    for (const engine of engines.splice(0)) await engine.close();
    await standIn?.close();
    await db?.dispose();
    await dataDir?.remove();
    await deleteKeysUnder(redis, prefix);
  });
  afterAll(async () => {
    await redis.quit();
  });

  it('waiting on the model or not yet at their runner: none is marked dead, none posts a second card', async () => {
    db = await openTestDatabase('postgres');
    dataDir = await makeTempDir();
    const { store } = db.database;
    await store.transaction((tx) => ensureLocalChat(tx));
    // The model calls in progress at the kill answer only after it (a slow model).
    let answerNow = () => {};
    const modelAnswers = new Promise<void>((resolve) => {
      answerNow = resolve;
    });
    const model = await AnthropicStandIn.start({
      apiKey: API_KEY,
      reply: (body) => ({
        kind: 'stream',
        blocks: [{ type: 'text', chunks: [`answer ${questionOf(body)}`] }],
        after: modelAnswers,
      }),
    });
    standIn = model;
    const now = () => new Date();
    const platform = new TerminalPlatform({ output: new PassThrough(), now });
    const engineWith = () => {
      const engine = buildEngine({
        store,
        platform,
        queue: createJobQueue<RunJob>({ name: queueName, redisUrl: TEST_REDIS_URL, prefix }),
        runners: () =>
          new AnthropicRunner({
            apiKey: API_KEY,
            baseUrl: model.url,
            defaultModel: 'claude-sonnet-4-6',
            maxRetries: 0,
          }),
        directory: new FileWorkspaceDirectory(dataDir?.path ?? ''),
        timings: TIMINGS,
        clock: { now },
      });
      engines.push(engine);
      return engine;
    };
    // The front end stores and enqueues what people type; it is never started, so it runs no turn.
    const chat = new TerminalChat({
      input: new PassThrough(),
      platform,
      engine: engineWith(),
      now,
      newId: randomUUID,
    });
    child = ChildWorker.start(
      {
        WORKER_DATABASE_URL: db.databaseUrl ?? '',
        WORKER_REDIS_URL: TEST_REDIS_URL,
        WORKER_QUEUE: queueName,
        WORKER_PREFIX: prefix,
        WORKER_DATA_DIR: dataDir.path,
        WORKER_HEARTBEAT_MS: String(TIMINGS.heartbeatMs),
        WORKER_DEAD_AFTER_MS: String(TIMINGS.deadAfterMs),
        WORKER_ANTHROPIC_URL: model.url,
        WORKER_ANTHROPIC_KEY: API_KEY,
        WORKER_COUNT_FILE: `${dataDir.path}/tool-runs.txt`,
        WORKER_CONCURRENCY: String(QUESTIONS),
      },
      platform,
    );
    await child.waitForLine(/^WORKER_READY$/);

    for (let n = 1; n <= QUESTIONS; n++) {
      if (n > 1) await chat.handleLine('/new');
      await chat.handleLine(`@engineer question ${n}`);
    }
    // Every turn claimed and waiting on the model, its card posted.
    await waitFor(async () => model.requests.length === QUESTIONS);
    const runs = () =>
      store.transaction((tx) => tx.runs.listByStatus(['queued', 'running', 'succeeded', 'failed']));
    expect((await runs()).map((r) => r.status)).toEqual(Array(QUESTIONS).fill('running'));
    expect(await child.kill('SIGKILL')).toEqual({ code: null, signal: 'SIGKILL' });
    answerNow();
    // The state a kill leaves when it lands before the runner's first checkpoint (after the claim
    // and the card, during the run's preparation): running, its card's ref stored, no checkpoint.
    let uncheckpointed = 0;
    const lostCards: string[] = [];
    for (const run of await runs()) {
      await store.inWorkspace(run.workspaceId, async (tx) => {
        const threadId = (await tx.conversations.findById(run.conversationId))?.threadId ?? null;
        const n = threadId === null ? 0 : platform.threads.numberOf(threadId);
        if (n <= CHECKPOINTED) return;
        await tx.checkpoints.remove(run.id);
        uncheckpointed += 1;
        if (n > CARD_REF_STORED) lostCards.push(run.id);
      });
    }
    expect(uncheckpointed).toBe(QUESTIONS - CHECKPOINTED);
    expect(lostCards).toHaveLength(QUESTIONS - CARD_REF_STORED);
    await db.database.dataSource.query('UPDATE runs SET status_card_ref = NULL WHERE id = ANY($1)', [
      lostCards,
    ]);

    await engineWith().start({ concurrency: QUESTIONS });
    const finished = await waitFor(async () => {
      const all = await runs();
      return all.every((r) => r.status !== 'queued' && r.status !== 'running') ? all : null;
    });
    expect(finished.map((r) => [r.status, r.liveness])).toEqual(Array(QUESTIONS).fill(['succeeded', 'ok']));
    const thread = (n: number) =>
      (platform.threads.list().find((t) => t.number === n)?.entries ?? []).map(describeEntry);
    await waitFor(async () => thread(QUESTIONS).includes(`engineer: answer ${QUESTIONS}`));
    for (let n = 1; n <= QUESTIONS; n++) {
      // One card (the one already posted goes on, found in its thread when its ref was lost), one
      // answer, nobody told to mention again.
      expect([n, thread(n)]).toEqual([
        n,
        [`you: @engineer question ${n}`, 'status(done) engineer', `engineer: answer ${n}`],
      ]);
    }
    // Each turn asked the model once after the restart (30 resumed, 10 restarted from the prompt).
    expect(model.requests).toHaveLength(2 * QUESTIONS);
  }, 60_000);
});
