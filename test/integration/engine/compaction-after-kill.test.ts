import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import type { Redis } from 'ioredis';
import { createJobQueue } from '../../../src/adapters/queue/create-job-queue';
import { createRedisClient } from '../../../src/adapters/redis/redis-connection-options';
import { AnthropicRunner } from '../../../src/adapters/runners/anthropic-runner';
import { FileWorkspaceDirectory } from '../../../src/adapters/workspace-directory/file-workspace-directory';
import { TerminalChat, TerminalPlatform } from '../../../src/bots/terminal';
import { DEFAULT_TIMINGS } from '../../../src/core/engine/engine-timings';
import type { RunJob } from '../../../src/core/engine/run-job';
import { createToolKit } from '../../../src/core/engine/tool-kit/turn-tool-kit';
import { INTERRUPTED_CALL } from '../../../src/core/engine/turn/turn-checkpoints';
import type { TurnEngine } from '../../../src/core/engine/turn-engine';
import { ensureLocalChat } from '../../../src/core/workspace/local-chat';
import { checkpointTools, toolRuns } from '../../support/checkpoint-tools';
import { ChildWorker } from '../../support/child-worker';
import { buildEngine, describeEntry, waitFor } from '../../support/engine-harness';
import { AnthropicStandIn } from '../../support/stand-ins/anthropic-stand-in';
import { makeTempDir } from '../../support/temp-dir';
import { openTestDatabase, type TestDatabase } from '../../support/test-database';
import { deleteKeysUnder, TEST_REDIS_URL } from '../queue/redis-test-prefix';

/** Small enough that a killed worker is found silent in about a second. */
const TIMINGS = { ...DEFAULT_TIMINGS, statusEditIntervalMs: 20, heartbeatMs: 100, deadAfterMs: 1000 };
const API_KEY = 'sk-ant-compaction-kill-test';
const SUMMARY = 'Read the early logs: every step compiled; nothing left but the long job.';

type Message = { role: string; content: unknown };
type Body = { messages: Message[]; tool_choice?: unknown };
type Block = { type: string; id?: string; name?: string; tool_use_id?: string; content?: unknown };

const bodyOf = (standIn: AnthropicStandIn, n: number): Body =>
  (standIn.requests[n]?.body ?? { messages: [] }) as Body;
const isSummaryRequest = (body: Body) => body.tool_choice !== undefined;
/** A message's blocks, without the A14 cache marks. */
const blocks = (message: Message | undefined): Block[] =>
  Array.isArray(message?.content)
    ? (message.content as (Block & { cache_control?: unknown })[]).map(
        ({ cache_control: _mark, ...block }) => block,
      )
    : [];
/** The ids of the tool calls a request repeats. */
const callIds = (body: Body): string[] =>
  body.messages.flatMap((m) => blocks(m).flatMap((b) => (b.type === 'tool_use' ? [b.id ?? ''] : [])));
/** The `log #<n>` heads of the `read_log` results a request carries. */
const logsIn = (body: Body): string[] => JSON.stringify(body.messages).match(/log #\d+/g) ?? [];

describe('A15, T2: a compacted turn survives SIGKILL of its worker (PostgreSQL + BullMQ, the built-in runner)', () => {
  const queueName = `turns-${randomUUID().slice(0, 8)}`;
  const prefix = `summon-test-compact-kill-${randomUUID().slice(0, 8)}`;
  let db: TestDatabase | undefined;
  let dataDir: Awaited<ReturnType<typeof makeTempDir>> | undefined;
  let child: ChildWorker | undefined;
  let standIn: AnthropicStandIn | undefined;
  const engines: TurnEngine[] = [];
  let redis: Redis;

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

  it('A15, T2: the turn is compacted once, killed at a later round, and resumed on a new worker from its checkpoint with the summary; no second summary, no dropped single rounds, and the reply lands', async () => {
    db = await openTestDatabase('postgres');
    dataDir = await makeTempDir();
    // Counts tokens (four characters each), so the loop's estimate is corrected to about itself.
    const model = await AnthropicStandIn.start({ apiKey: API_KEY, promptCache: true });
    standIn = model;
    const { store } = db.database;
    const local = await store.transaction((tx) => ensureLocalChat(tx));
    const workspaceId = local.workspace.id;
    const engineer = await store.inWorkspace(workspaceId, (tx) =>
      tx.agents.findByName(workspaceId, 'engineer'),
    );
    if (engineer === null) throw new Error('no engineer');
    // A4: about six ~1,000-token rounds fit; the seventh request would not.
    await store.inWorkspace(workspaceId, (tx) => tx.agents.update(engineer.id, { contextSize: 7000 }));
    const countFile = path.join(dataDir.path, 'tool-runs.txt');
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
        tools: createToolKit(checkpointTools(countFile)),
        clock: { now },
      });
      engines.push(engine);
      return engine;
    };
    // The front end stores what people type; it is never started, so it runs no turn.
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
        WORKER_COUNT_FILE: countFile,
      },
      platform,
    );
    await child.waitForLine(/^WORKER_READY$/);

    // The model reads the log until the turn is compacted, reads once more, then starts the long
    // job (the worker is killed while it runs); asked again, it answers.
    let summarized = false;
    let readsAfterSummary = 0;
    let hung = false;
    model.reply = (body) => {
      if (body.tool_choice !== undefined) {
        summarized = true;
        return { kind: 'stream', blocks: [{ type: 'text', chunks: [SUMMARY] }] };
      }
      if (!summarized || readsAfterSummary === 0) {
        if (summarized) readsAfterSummary += 1;
        return { kind: 'stream', blocks: [{ type: 'tool_use', name: 'read_log', input: {} }] };
      }
      if (!hung) {
        hung = true;
        return { kind: 'stream', blocks: [{ type: 'tool_use', name: 'hang', input: {} }] };
      }
      return { kind: 'stream', blocks: [{ type: 'text', chunks: ['The build is fine.'] }] };
    };

    await chat.handleLine('@engineer check the build, then run the long job');
    await child.waitForLine(/^TOOL_RUNNING hang$/);
    const [run, ...others] = await store.transaction((tx) => tx.runs.listByStatus(['running']));
    expect(others).toEqual([]);
    if (run === undefined) throw new Error('no running run');
    // T2: what the killed worker left: the summary, and only the rounds kept since it.
    const left = await store.inWorkspace(workspaceId, (tx) => tx.checkpoints.find(run.id));
    expect(left?.checkpoint.summary).toBe(SUMMARY);
    expect(left?.checkpoint.round).toMatchObject({ inFlight: true, calls: [{ name: 'hang' }] });
    const bodiesBefore = model.requests.map((_, i) => bodyOf(model, i));
    const summaryAt = bodiesBefore.findIndex(isSummaryRequest);
    expect(summaryAt).toBeGreaterThan(0);
    expect(bodiesBefore.filter(isSummaryRequest)).toHaveLength(1);
    // The rounds the summary replaced, and the ones the worker went on with.
    const summarizedBody = bodyOf(model, summaryAt);
    const dropped = callIds(summarizedBody);
    const droppedLogs = logsIn(summarizedBody);
    expect(dropped.length).toBeGreaterThan(1);
    // A15: no request before the compaction left a round out (each repeats all earlier ones).
    for (const [i, body] of bodiesBefore.slice(0, summaryAt).entries())
      expect(body.messages).toHaveLength(1 + 2 * i);
    // After it, the killed worker's requests carried the summary after the prompt.
    for (const body of bodiesBefore.slice(summaryAt + 1))
      expect(JSON.stringify(body.messages[0])).toContain(SUMMARY);
    expect(await child.kill('SIGKILL')).toEqual({ code: null, signal: 'SIGKILL' });
    const requestsBeforeKill = model.requests.length;

    // A new worker finds the run silent and resumes it from the checkpoint.
    await engineWith().start({ concurrency: 4 });
    const finished = await waitFor(async () => {
      const current = await store.transaction((tx) => tx.runs.findById(run.id));
      return current?.status === 'succeeded' ? current : null;
    });
    expect(finished).toMatchObject({ liveness: 'ok', error: null });
    const thread = () => (platform.threads.list()[0]?.entries ?? []).map(describeEntry);
    await waitFor(async () => thread().includes('engineer: The build is fine.'));

    // Exactly one more request: the resumed turn's, with the summary after the prompt, the
    // rounds kept since the compaction, and the interrupted call; none of the dropped rounds.
    expect(model.requests).toHaveLength(requestsBeforeKill + 1);
    const resumed = bodyOf(model, requestsBeforeKill);
    expect(isSummaryRequest(resumed)).toBe(false);
    expect(JSON.stringify(resumed.messages[0])).toContain(SUMMARY);
    for (const id of dropped) expect(callIds(resumed)).not.toContain(id);
    // Every log read is either summarized or still there, in order: none was left out alone.
    const reads = toolRuns(countFile).filter((line) => line === 'read_log').length;
    expect([...droppedLogs, ...logsIn(resumed)]).toEqual(
      Array.from({ length: reads }, (_, i) => `log #${i + 1}`),
    );
    expect(logsIn(resumed).length).toBeGreaterThan(1); // the rounds kept, and the one read after
    const hangCall = blocks(resumed.messages.at(-2)).find((b) => b.type === 'tool_use');
    expect(hangCall).toMatchObject({ name: 'hang' });
    expect(blocks(resumed.messages.at(-1))).toEqual([
      { type: 'tool_result', tool_use_id: hangCall?.id, content: INTERRUPTED_CALL, is_error: true },
    ]);
    // The resumed request is the checkpoint's rounds, one request after the last the killed
    // worker sent (its calls and the hang round): nothing was dropped one round at a time.
    const lastBeforeKill = bodyOf(model, requestsBeforeKill - 1);
    expect(resumed.messages.slice(0, lastBeforeKill.messages.length).map((m) => blocks(m))).toEqual(
      lastBeforeKill.messages.map((m) => blocks(m)),
    );
    expect(resumed.messages).toHaveLength(lastBeforeKill.messages.length + 2);
    expect(model.requests.map((_, i) => bodyOf(model, i)).filter(isSummaryRequest)).toHaveLength(1);

    // The call in flight at the kill is not run again, and the turn's card is the same one.
    expect(toolRuns(countFile).at(-1)).toBe('hang');
    expect(toolRuns(countFile).filter((line) => line === 'hang')).toHaveLength(1);
    expect(thread()).toEqual([
      'you: @engineer check the build, then run the long job',
      'status(done) engineer',
      'engineer: The build is fine.',
    ]);
  });
});
