import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import type { Redis } from 'ioredis';
import { createJobQueue } from '../../../src/adapters/queue/create-job-queue';
import { createRedisClient } from '../../../src/adapters/redis/redis-connection-options';
import { AnthropicRunner } from '../../../src/adapters/runners/anthropic-runner';
import { FileWorkspaceDirectory } from '../../../src/adapters/workspace-directory/file-workspace-directory';
import { TerminalChat, TerminalPlatform } from '../../../src/bots/terminal';
import { DEFAULT_TIMINGS, type EngineTimings } from '../../../src/core/engine/engine-timings';
import type { RunJob } from '../../../src/core/engine/run-job';
import { createToolKit } from '../../../src/core/engine/tool-kit/turn-tool-kit';
import type { TurnEngine } from '../../../src/core/engine/turn-engine';
import type { ChatPlatform } from '../../../src/core/ports/chat-platform';
import { InProcessWaitSignals } from '../../../src/core/waits/in-process-wait-signals';
import { ensureLocalChat } from '../../../src/core/workspace/local-chat';
import { checkpointTools } from '../../support/checkpoint-tools';
import { ChildWorker } from '../../support/child-worker';
import { buildEngine, describeEntry, waitFor } from '../../support/engine-harness';
import { AnthropicStandIn } from '../../support/stand-ins/anthropic-stand-in';
import { makeTempDir } from '../../support/temp-dir';
import { openTestDatabase, type TestDatabase } from '../../support/test-database';
import { deleteKeysUnder, TEST_REDIS_URL } from '../queue/redis-test-prefix';

/** Small enough that a killed worker is found silent in about a second. */
const TIMINGS = { ...DEFAULT_TIMINGS, statusEditIntervalMs: 20, heartbeatMs: 100, deadAfterMs: 1000 };
const API_KEY = 'sk-ant-durable-waits-test';
const you = { platform: 'terminal' as const, workspace: { slug: 'default' }, senderId: 'you' };

type Message = { role: string; content: unknown };
type Block = { type: string; tool_use_id?: string; content?: unknown; is_error?: boolean; id?: string };
const messagesOf = (standIn: AnthropicStandIn, n: number): Message[] =>
  ((standIn.requests[n]?.body as { messages?: Message[] } | undefined)?.messages ?? []) as Message[];
/** A message's blocks, without the A14 cache marks (where the breakpoints fall is tested in prompt-cache.test.ts). */
const blocks = (message: Message | undefined): Block[] =>
  Array.isArray(message?.content)
    ? (message.content as (Block & { cache_control?: unknown })[]).map(
        ({ cache_control: _mark, ...block }) => block,
      )
    : [];
/** The result the model was given for the call of its previous message, in request `n`. */
const lastToolResult = (standIn: AnthropicStandIn, n: number) => {
  const asked = messagesOf(standIn, n);
  const toolUse = blocks(asked.at(-2)).find((b) => b.type === 'tool_use');
  return { toolUse, results: blocks(asked.at(-1)) };
};

describe('T2, A9: a turn waiting on a question or another agent survives SIGKILL of its worker (PostgreSQL + BullMQ)', () => {
  let queueName: string;
  let prefix: string;
  let db: TestDatabase | undefined;
  let dataDir: Awaited<ReturnType<typeof makeTempDir>> | undefined;
  let child: ChildWorker | undefined;
  let standIn: AnthropicStandIn | undefined;
  const engines: TurnEngine[] = [];
  let redis: Redis;

  beforeAll(() => {
    redis = createRedisClient(TEST_REDIS_URL);
  });
  beforeEach(() => {
    queueName = `waits-${randomUUID().slice(0, 8)}`;
    prefix = `summon-test-waits-${randomUUID().slice(0, 8)}`;
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

  /**
   * The shared world: the database, the chat every process posts to, the model stand-in, and
   * a child worker process (null: none). `childPlatform` is what the child's posts reach (the
   * chat, unless a test holds some of them).
   */
  async function world(childPlatform: ((chat: TerminalPlatform) => ChatPlatform) | null = (chat) => chat) {
    db = await openTestDatabase('postgres');
    dataDir = await makeTempDir();
    standIn = await AnthropicStandIn.start({ apiKey: API_KEY });
    const { store } = db.database;
    const local = await store.transaction((tx) => ensureLocalChat(tx));
    const countFile = path.join(dataDir.path, 'tool-runs.txt');
    const now = () => new Date();
    const platform = new TerminalPlatform({ output: new PassThrough(), now });
    const model = standIn;
    const waits = new InProcessWaitSignals();
    const engineWith = (timings: Partial<EngineTimings> = {}) => {
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
        timings: { ...TIMINGS, ...timings },
        tools: createToolKit(checkpointTools(countFile)),
        waits,
        clock: { now },
      });
      engines.push(engine);
      return engine;
    };
    // The front end stores what people type and takes their answers; it runs no turn.
    const frontEnd = engineWith();
    const chat = new TerminalChat({
      input: new PassThrough(),
      platform,
      engine: frontEnd,
      now,
      newId: randomUUID,
    });
    if (childPlatform !== null) {
      child = ChildWorker.start(
        {
          WORKER_DATABASE_URL: db.databaseUrl ?? '',
          WORKER_REDIS_URL: TEST_REDIS_URL,
          WORKER_QUEUE: queueName,
          WORKER_PREFIX: prefix,
          WORKER_DATA_DIR: dataDir.path,
          WORKER_HEARTBEAT_MS: String(TIMINGS.heartbeatMs),
          WORKER_DEAD_AFTER_MS: String(TIMINGS.deadAfterMs),
          WORKER_ANTHROPIC_URL: standIn.url,
          WORKER_ANTHROPIC_KEY: API_KEY,
          WORKER_COUNT_FILE: countFile,
        },
        childPlatform(platform),
      );
      await child.waitForLine(/^WORKER_READY$/);
    }
    const thread = () => platform.threads.list().flatMap((t) => t.entries.map(describeEntry));
    const runs = () =>
      store.transaction((tx) => tx.runs.listByStatus(['queued', 'running', 'succeeded', 'failed']));
    const runOf = (id: string) => store.transaction((tx) => tx.runs.findById(id));
    const checkpointOf = (runId: string) =>
      store.inWorkspace(local.workspace.id, (tx) => tx.checkpoints.find(runId));
    const questionOf = (id: string) =>
      store.inWorkspace(local.workspace.id, (tx) => tx.questions.findById(id));
    const succeeded = (id: string) =>
      waitFor(async () => ((await runOf(id))?.status === 'succeeded' ? runOf(id) : null));
    return {
      store,
      workspaceId: local.workspace.id,
      platform,
      chat,
      frontEnd,
      engineWith,
      thread,
      runs,
      runOf,
      checkpointOf,
      questionOf,
      succeeded,
    };
  }

  it('T2, A9, N13: a question answered after the restart resumes the parked turn with the answer; one card, one turn', async () => {
    const w = await world();
    const model = standIn as AnthropicStandIn;
    model.script(
      {
        kind: 'stream',
        blocks: [
          { type: 'tool_use', name: 'ask_question', input: { text: 'Ship r3?', options: ['yes', 'no'] } },
        ],
      },
      { kind: 'stream', blocks: [{ type: 'text', chunks: ['shipping r3'] }] },
    );
    await w.chat.handleLine('@engineer ship r3 if they agree');
    const [run] = await w.runs();
    if (run === undefined) throw new Error('no run');
    // The card is up and the checkpoint names the question: the turn waits, suspended, in the child.
    const question = await waitFor(async () => (await w.checkpointOf(run.id))?.awaits ?? null);
    expect(question).toMatchObject({ kind: 'question', until: expect.any(Date) });
    await waitFor(async () => w.thread().includes('question(pending) engineer: Ship r3?'));
    // The card's ref is stored just after it is shown: killed before that, nobody could edit it.
    await waitFor(async () => (await w.questionOf(question.id))?.platformCardRef ?? null);
    expect(await child?.kill('SIGKILL')).toEqual({ code: null, signal: 'SIGKILL' });

    // A new worker: its recovery finds the run silent and parks it on its question, not dead
    // and not resumed with the call reported as interrupted.
    await w.engineWith().start({ concurrency: 4 });
    await waitFor(async () => (await w.checkpointOf(run.id))?.parkedAt != null);
    expect(await w.runOf(run.id)).toMatchObject({ status: 'running', liveness: 'blocked' });
    expect(model.requests).toHaveLength(1);

    // The answer lands on the front end, which holds no turn: the parked turn goes back to the queue.
    expect(await w.frontEnd.act({ kind: 'answer', questionId: question.id, answer: '1' }, you)).toEqual({
      ok: true,
    });
    expect(await w.succeeded(run.id)).toMatchObject({ liveness: 'ok', error: null });
    await waitFor(async () => w.thread().includes('engineer: shipping r3'));

    // The model heard the answer as the result of its one call; nothing was asked twice.
    expect(model.requests).toHaveLength(2);
    const { toolUse, results } = lastToolResult(model, 1);
    expect(toolUse).toMatchObject({ name: 'ask_question' });
    expect(results).toEqual([{ type: 'tool_result', tool_use_id: toolUse?.id, content: 'Answer: yes' }]);
    expect(await w.checkpointOf(run.id)).toBeNull();
    const finalThread = [
      'you: @engineer ship r3 if they agree',
      'status(done) engineer',
      'question(answered) engineer: Ship r3? = yes (you)',
      'engineer: shipping r3',
    ];
    // The card's last edit and the reply reach the chat on their own; wait for both to land.
    await waitFor(async () => JSON.stringify(w.thread()) === JSON.stringify(finalThread)).catch(
      () => undefined,
    );
    expect(w.thread()).toEqual(finalThread);
    expect((await w.runs()).map((r) => r.id)).toEqual([run.id]);
  });

  it('T2, A9, N11: ask_agent whose target finished while the asking worker was dead resumes at recovery with the reply; no second hand-off', async () => {
    // The child dies while it posts the hand-off's note (after the hand-off was stored, the
    // caller's wait on it recorded, and before the note is shown or the new run enqueued).
    const w = await world((chat) => ({
      platform: chat.platform,
      post: (thread, message) =>
        message.content.kind === 'note' ? new Promise<never>(() => undefined) : chat.post(thread, message),
      update: (thread, ref, message) => chat.update(thread, ref, message),
      tellPrivately: (thread, user, text) => chat.tellPrivately(thread, user, text),
      startThread: (channel, message) => chat.startThread(channel, message),
    }));
    const model = standIn as AnthropicStandIn;
    model.script(
      {
        kind: 'stream',
        blocks: [
          { type: 'tool_use', name: 'ask_agent', input: { agent: 'qa', text: 'Is the build green?' } },
        ],
      },
      { kind: 'stream', blocks: [{ type: 'text', chunks: ['green'] }] },
      { kind: 'stream', blocks: [{ type: 'text', chunks: ['qa says the build is green'] }] },
    );
    await w.chat.handleLine('@engineer ask qa whether the build is green');
    const [caller] = await w.runs();
    if (caller === undefined) throw new Error('no run');
    const awaited = await waitFor(async () => (await w.checkpointOf(caller.id))?.awaits ?? null);
    expect(awaited).toMatchObject({ kind: 'run', until: expect.any(Date) });
    expect(await child?.kill('SIGKILL')).toEqual({ code: null, signal: 'SIGKILL' });
    expect(await w.runOf(awaited.id)).toMatchObject({ status: 'queued', startedByAgentId: caller.agentId });

    // Another worker, slow to judge silence: it takes up the queued hand-off, which finishes
    // while nobody holds the caller (not parked, not resumed: its death is not noticed yet).
    await w.engineWith({ deadAfterMs: 10 * 60_000 }).start({ concurrency: 4 });
    await w.succeeded(awaited.id);
    await waitFor(async () => w.thread().includes('qa: green'));
    expect(await w.runOf(caller.id)).toMatchObject({ status: 'running' });
    expect(await w.checkpointOf(caller.id)).toMatchObject({ awaits: awaited, parkedAt: null });

    // A worker that notices the dead one: the caller's wait is over, so it resumes at once
    // and its call reads the reply of the run it had started.
    await w.engineWith().start({ concurrency: 4 });
    expect(await w.succeeded(caller.id)).toMatchObject({ liveness: 'ok', error: null });
    await waitFor(async () => w.thread().includes('engineer: qa says the build is green'));
    expect(model.requests).toHaveLength(3);
    const { toolUse, results } = lastToolResult(model, 2);
    expect(toolUse).toMatchObject({ name: 'ask_agent' });
    expect(results).toEqual([
      { type: 'tool_result', tool_use_id: toolUse?.id, content: 'qa replied:\ngreen' },
    ]);
    // One hand-off: the caller's run and the one it started, nothing else.
    expect((await w.runs()).map((r) => r.id).sort()).toEqual([caller.id, awaited.id].sort());
    expect(await w.checkpointOf(caller.id)).toBeNull();
  });
  it('T2, A9, N11: ask_agent parked after the crash resumes when the run it waits for ends later, on another worker', async () => {
    const w = await world();
    const model = standIn as AnthropicStandIn;
    model.script(
      {
        kind: 'stream',
        blocks: [{ type: 'tool_use', name: 'ask_agent', input: { agent: 'qa', text: 'Run the slow suite' } }],
      },
      // qa's turn, in the same child: a call that never ends, until the kill.
      { kind: 'stream', blocks: [{ type: 'tool_use', name: 'hang', input: {} }] },
      // qa resumed after the restart, on a worker that is then stopped: never answered.
      {
        kind: 'stream',
        blocks: [{ type: 'text', chunks: ['never sent'] }],
        after: new Promise(() => undefined),
      },
      { kind: 'stream', blocks: [{ type: 'text', chunks: ['suite passed'] }] },
      { kind: 'stream', blocks: [{ type: 'text', chunks: ['qa ran it: passed'] }] },
    );
    await w.chat.handleLine('@engineer have qa run the slow suite');
    const [caller] = await w.runs();
    if (caller === undefined) throw new Error('no run');
    await child?.waitForLine(/^TOOL_RUNNING hang$/);
    const awaited = await waitFor(async () => (await w.checkpointOf(caller.id))?.awaits ?? null);
    expect(await child?.kill('SIGKILL')).toEqual({ code: null, signal: 'SIGKILL' });

    // A worker that notices the dead one parks the caller on qa's run (still running) and
    // resumes qa's turn; stopped (SIGTERM) mid-way, it hands qa's turn back.
    const noticing = w.engineWith();
    await noticing.start({ concurrency: 4 });
    await waitFor(async () => (await w.checkpointOf(caller.id))?.parkedAt != null);
    await waitFor(async () => model.requests.length >= 3);
    await noticing.close();
    expect(await w.runOf(awaited.id)).toMatchObject({ status: 'queued' });
    expect(await w.runOf(caller.id)).toMatchObject({ status: 'running', liveness: 'blocked' });

    // A worker slow to judge silence (it never looks at the parked caller) finishes qa's turn:
    // that end alone takes the parked caller back to the queue.
    await w.engineWith({ deadAfterMs: 10 * 60_000 }).start({ concurrency: 4 });
    expect(await w.succeeded(awaited.id)).toMatchObject({ error: null });
    expect(await w.succeeded(caller.id)).toMatchObject({ liveness: 'ok', error: null });
    await waitFor(async () => w.thread().includes('engineer: qa ran it: passed'));
    expect(model.requests).toHaveLength(5);
    const { toolUse, results } = lastToolResult(model, 4);
    expect(toolUse).toMatchObject({ name: 'ask_agent' });
    expect(results).toEqual([
      { type: 'tool_result', tool_use_id: toolUse?.id, content: 'qa replied:\nsuite passed' },
    ]);
    expect((await w.runs()).map((r) => r.id).sort()).toEqual([caller.id, awaited.id].sort());
  });
  it('T2, A9, N13: a turn handed back at a graceful stop while it waits on a question goes on elsewhere waiting on the same card', async () => {
    const w = await world(null);
    const model = standIn as AnthropicStandIn;
    model.script(
      {
        kind: 'stream',
        blocks: [
          { type: 'tool_use', name: 'ask_question', input: { text: 'Tag r4?', options: ['yes', 'no'] } },
        ],
      },
      { kind: 'stream', blocks: [{ type: 'text', chunks: ['not tagging r4'] }] },
    );
    const first = w.engineWith();
    await first.start({ concurrency: 4 });
    await w.chat.handleLine('@engineer tag r4 if they agree');
    const [run] = await w.runs();
    if (run === undefined) throw new Error('no run');
    const question = await waitFor(async () => (await w.checkpointOf(run.id))?.awaits ?? null);
    await first.close();
    // Handed back, not cancelled: the card still waits for its answer.
    expect(await w.runOf(run.id)).toMatchObject({ status: 'queued' });
    expect(
      await w.store.inWorkspace(w.workspaceId, (tx) => tx.questions.findById(question.id)),
    ).toMatchObject({
      status: 'pending',
    });

    await w.engineWith().start({ concurrency: 4 });
    await waitFor(async () => {
      const current = await w.runOf(run.id);
      const checkpoint = await w.checkpointOf(run.id);
      return (
        current?.status === 'running' &&
        checkpoint?.awaits?.id === question.id &&
        current.liveness === 'blocked'
      );
    });
    expect(model.requests).toHaveLength(1);
    expect(await w.frontEnd.act({ kind: 'answer', questionId: question.id, answer: 'no' }, you)).toEqual({
      ok: true,
    });
    await waitFor(async () => w.thread().includes('engineer: not tagging r4'));
    const { results } = lastToolResult(model, 1);
    expect(results).toMatchObject([{ type: 'tool_result', content: 'Answer: no' }]);
    expect(w.thread().filter((line) => line.startsWith('question('))).toEqual([
      'question(answered) engineer: Tag r4? = no (you)',
    ]);
  });
});
