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
import { PUSH_AGAIN_LINE } from '../../../src/core/engine/recovery/held-pushes';
import type { RunJob } from '../../../src/core/engine/run-job';
import { createToolKit } from '../../../src/core/engine/tool-kit/turn-tool-kit';
import { INTERRUPTED_CALL } from '../../../src/core/engine/turn/turn-checkpoints';
import type { TurnEngine } from '../../../src/core/engine/turn-engine';
import { InProcessWaitSignals } from '../../../src/core/waits/in-process-wait-signals';
import { ensureLocalChat } from '../../../src/core/workspace/local-chat';
import { COMMITS_ASK_FIRST } from '../../support/anthropic-agent';
import { checkpointTools, toolRuns } from '../../support/checkpoint-tools';
import { ChildWorker } from '../../support/child-worker';
import { buildEngine, describeEntry, waitFor } from '../../support/engine-harness';
import { AnthropicStandIn } from '../../support/stand-ins/anthropic-stand-in';
import { makeTempDir } from '../../support/temp-dir';
import { openTestDatabase, type TestDatabase } from '../../support/test-database';
import { cardsOf } from '../../support/waiting-turns';
import { deleteKeysUnder, TEST_REDIS_URL } from '../queue/redis-test-prefix';

/** Small enough that a killed worker is found silent in about a second. */
const TIMINGS = { ...DEFAULT_TIMINGS, statusEditIntervalMs: 20, heartbeatMs: 100, deadAfterMs: 1000 };
const API_KEY = 'sk-ant-durable-test';
const you = { platform: 'terminal' as const, workspace: { slug: 'default' }, senderId: 'you' };

type Message = { role: string; content: unknown };
type Block = { type: string; tool_use_id?: string; content?: unknown; is_error?: boolean; id?: string };

/** The `messages` of the stand-in's n-th recorded request. */
const messagesOf = (standIn: AnthropicStandIn, n: number): Message[] =>
  ((standIn.requests[n]?.body as { messages?: Message[] } | undefined)?.messages ?? []) as Message[];
/** A message's blocks, without the A14 cache marks (where the breakpoints fall is tested in prompt-cache.test.ts). */
const blocks = (message: Message | undefined): Block[] =>
  Array.isArray(message?.content)
    ? (message.content as (Block & { cache_control?: unknown })[]).map(
        ({ cache_control: _mark, ...block }) => block,
      )
    : [];

describe('T2: a turn survives SIGKILL of its worker (PostgreSQL + BullMQ, the built-in runner)', () => {
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
    queueName = `turns-${randomUUID().slice(0, 8)}`;
    prefix = `summon-test-durable-${randomUUID().slice(0, 8)}`;
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

  /** The shared world: the database, the chat both processes post to, the model stand-in. */
  async function world(options: { child: boolean } = { child: true }) {
    db = await openTestDatabase('postgres');
    dataDir = await makeTempDir();
    standIn = await AnthropicStandIn.start({ apiKey: API_KEY });
    const { store } = db.database;
    const local = await store.transaction((tx) => ensureLocalChat(tx));
    await store.inWorkspace(local.workspace.id, (tx) =>
      tx.guardrails.upsert(local.workspace.id, COMMITS_ASK_FIRST),
    );
    const countFile = path.join(dataDir.path, 'tool-runs.txt');
    const now = () => new Date();
    const platform = new TerminalPlatform({ output: new PassThrough(), now });
    const model = standIn;
    // The test process's engines share their wait notifications, as processes do over Redis.
    const waits = new InProcessWaitSignals();
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
        waits,
        clock: { now },
      });
      engines.push(engine);
      return engine;
    };
    // The front end stores what people type and takes their clicks; it is never started, so it
    // runs no turn (as a `web` process would not).
    const frontEnd = engineWith();
    const chat = new TerminalChat({
      input: new PassThrough(),
      platform,
      engine: frontEnd,
      now,
      newId: randomUUID,
    });
    if (options.child) {
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
        platform,
      );
      await child.waitForLine(/^WORKER_READY$/);
    }
    const thread = () => (platform.threads.list()[0]?.entries ?? []).map(describeEntry);
    const onlyRun = async () => {
      const [run, ...others] = await store.transaction((tx) =>
        tx.runs.listByStatus(['queued', 'running', 'succeeded', 'failed']),
      );
      expect(others).toEqual([]);
      if (run === undefined) throw new Error('no run');
      return run;
    };
    const checkpointOf = (runId: string) =>
      store.inWorkspace(local.workspace.id, (tx) => tx.checkpoints.find(runId));
    return {
      store,
      workspaceId: local.workspace.id,
      platform,
      chat,
      frontEnd,
      engineWith,
      countFile,
      thread,
      onlyRun,
      checkpointOf,
    };
  }

  it('T2, G4: an approval clicked after the crash resumes the turn on a new worker: the call runs once and the turn replies', async () => {
    const w = await world();
    const model = standIn as AnthropicStandIn;
    model.script(
      { kind: 'stream', blocks: [{ type: 'tool_use', name: 'release', input: { tag: 'r1' } }] },
      { kind: 'stream', blocks: [{ type: 'text', chunks: ['r1 is out'] }] },
    );
    await w.chat.handleLine('@engineer release r1');
    const run = await w.onlyRun();
    // The card is up and the checkpoint names its approval: the turn waits, suspended, in the child.
    const approval = await waitFor(async () => cardsOf(w.platform.threads.list()).approvals[0] ?? null);
    await waitFor(async () => (await w.checkpointOf(run.id))?.approvalId === approval.id);
    // The card's ref is stored just after it is shown: killed before that, nobody could edit it.
    await waitFor(async () =>
      w.store.inWorkspace(
        w.workspaceId,
        async (tx) => (await tx.approvals.findById(approval.id))?.platformCardRef ?? null,
      ),
    );
    expect(await child?.kill('SIGKILL')).toEqual({ code: null, signal: 'SIGKILL' });

    // A new worker: its recovery finds the run silent and parks it on its approval, not dead.
    await w.engineWith().start({ concurrency: 4 });
    await waitFor(async () => (await w.checkpointOf(run.id))?.parkedAt != null);
    expect(await w.store.transaction((tx) => tx.runs.findById(run.id))).toMatchObject({
      status: 'running',
      liveness: 'blocked',
    });
    expect(toolRuns(w.countFile)).toEqual([]);
    expect(model.requests).toHaveLength(1);
    expect(w.thread()).toEqual([
      'you: @engineer release r1',
      'status(working) engineer',
      'approval(pending) engineer wants to run: release: {"tag":"r1"}',
    ]);

    // The click lands on the front end, which holds no turn: the parked one goes back to the queue.
    expect(
      await w.frontEnd.act({ kind: 'approval', approvalId: approval.id, verdict: 'approve' }, you),
    ).toEqual({ ok: true });
    const finished = await waitFor(async () => {
      const current = await w.store.transaction((tx) => tx.runs.findById(run.id));
      return current?.status === 'succeeded' ? current : null;
    });
    expect(finished).toMatchObject({ liveness: 'ok', error: null });
    await waitFor(async () => w.thread().includes('engineer: r1 is out'));

    // The call ran exactly once, and the model heard its result.
    expect(toolRuns(w.countFile)).toEqual(['release r1']);
    expect(model.requests).toHaveLength(2);
    const asked = messagesOf(model, 1);
    const toolUse = blocks(asked.at(-2)).find((b) => b.type === 'tool_use');
    expect(blocks(asked.at(-1))).toEqual([
      { type: 'tool_result', tool_use_id: toolUse?.id, content: 'released r1' },
    ]);
    expect(await w.checkpointOf(run.id)).toBeNull();
    expect(w.thread()).toEqual([
      'you: @engineer release r1',
      'status(done) engineer',
      'approval(approved) engineer wants to run: release: {"tag":"r1"}',
      'engineer: r1 is out',
    ]);
  });

  it('T2: a turn killed while a tool runs resumes from its checkpoint; the model is told the call was interrupted, and it is not run again', async () => {
    const w = await world();
    const model = standIn as AnthropicStandIn;
    model.script(
      { kind: 'stream', blocks: [{ type: 'tool_use', name: 'hang', input: {} }] },
      { kind: 'stream', blocks: [{ type: 'text', chunks: ['the job was cut short'] }] },
    );
    await w.chat.handleLine('@engineer run the long job');
    const run = await w.onlyRun();
    await child?.waitForLine(/^TOOL_RUNNING hang$/);
    expect(await child?.kill('SIGKILL')).toEqual({ code: null, signal: 'SIGKILL' });

    await w.engineWith().start({ concurrency: 4 });
    const finished = await waitFor(async () => {
      const current = await w.store.transaction((tx) => tx.runs.findById(run.id));
      return current?.status === 'succeeded' ? current : null;
    });
    expect(finished).toMatchObject({ liveness: 'ok', error: null });
    await waitFor(async () => w.thread().includes('engineer: the job was cut short'));

    expect(toolRuns(w.countFile)).toEqual(['hang']);
    expect(model.requests).toHaveLength(2);
    const asked = messagesOf(model, 1);
    const toolUse = blocks(asked.at(-2)).find((b) => b.type === 'tool_use');
    expect(toolUse).toMatchObject({ type: 'tool_use', name: 'hang' });
    expect(blocks(asked.at(-1))).toEqual([
      { type: 'tool_result', tool_use_id: toolUse?.id, content: INTERRUPTED_CALL, is_error: true },
    ]);
    // The same status card goes on (no second card, no "the worker stopped" message).
    expect(w.thread()).toEqual([
      'you: @engineer run the long job',
      'status(done) engineer',
      'engineer: the job was cut short',
    ]);
  });

  it('T2, G5: a push held at the gateway when the process died is abandoned, its card says to push again, and the agent is told', async () => {
    const w = await world();
    const model = standIn as AnthropicStandIn;
    model.script(
      { kind: 'stream', blocks: [{ type: 'tool_use', name: 'hang', input: {} }] },
      { kind: 'stream', blocks: [{ type: 'text', chunks: ['I will push again'] }] },
    );
    await w.chat.handleLine('@engineer push the fix');
    const run = await w.onlyRun();
    await child?.waitForLine(/^TOOL_RUNNING hang$/);
    // What the gateway in the child's process records for a push it holds (its `git push` is
    // the call in flight): the approval card, and the push waiting on it.
    const approval = await w.frontEnd.requestApproval({
      runId: run.id,
      action: 'push_to_remote',
      details: { summary: 'engineer wants to push to acme/api', lines: ['main: 1111111 → 2222222'] },
    });
    const push = await w.store.inWorkspace(w.workspaceId, (tx) =>
      tx.gitPushes.insert(w.workspaceId, {
        runId: run.id,
        repo: 'acme/api',
        updates: [{ oldId: '1'.repeat(40), newId: '2'.repeat(40), ref: 'refs/heads/main' }],
        decision: 'ask',
        status: 'waiting',
        approvalId: approval.id,
        reason: 'engineer wants to push to acme/api',
      }),
    );
    expect(await child?.kill('SIGKILL')).toEqual({ code: null, signal: 'SIGKILL' });

    await w.engineWith().start({ concurrency: 4 });
    await waitFor(async () => {
      const current = await w.store.transaction((tx) => tx.runs.findById(run.id));
      return current?.status === 'succeeded';
    });
    await waitFor(async () => w.thread().includes('engineer: I will push again'));
    const [abandoned] = await w.store.inWorkspace(w.workspaceId, (tx) =>
      tx.gitPushes.listAbandoned(run.id, 'acme/api'),
    );
    expect(abandoned).toMatchObject({ id: push.id, status: 'abandoned' });
    // The card says so (and keeps saying so: the line is stored with the approval).
    const card = w.platform.threads
      .list()[0]
      ?.entries.flatMap((entry) =>
        entry.kind === 'posted' && entry.message.content.kind === 'approval'
          ? [entry.message.content.card]
          : [],
      )[0];
    expect(card).toMatchObject({ status: 'pending', details: ['main: 1111111 → 2222222', PUSH_AGAIN_LINE] });
    // The agent is told, in the result of its interrupted call.
    const asked = messagesOf(model, 1);
    const toolUse = blocks(asked.at(-2)).find((b) => b.type === 'tool_use');
    expect(blocks(asked.at(-1))).toEqual([
      {
        type: 'tool_result',
        tool_use_id: toolUse?.id,
        content: `${INTERRUPTED_CALL} The push to acme/api was held for approval when the worker stopped: it was not sent. Push again.`,
        is_error: true,
      },
    ]);
    expect(toolRuns(w.countFile)).toEqual(['hang']);
  });

  it('T2, G4: a turn handed back at a graceful stop while it waits goes on elsewhere waiting on the same approval; the click runs the call once', async () => {
    const w = await world({ child: false });
    const model = standIn as AnthropicStandIn;
    model.script(
      { kind: 'stream', blocks: [{ type: 'tool_use', name: 'release', input: { tag: 'r2' } }] },
      { kind: 'stream', blocks: [{ type: 'text', chunks: ['r2 is out'] }] },
    );
    const first = w.engineWith();
    await first.start({ concurrency: 4 });
    await w.chat.handleLine('@engineer release r2');
    const run = await w.onlyRun();
    const approval = await waitFor(async () => cardsOf(w.platform.threads.list()).approvals[0] ?? null);
    await waitFor(async () => (await w.checkpointOf(run.id))?.approvalId === approval.id);
    await first.close();
    expect(await w.store.transaction((tx) => tx.runs.findById(run.id))).toMatchObject({ status: 'queued' });

    // Another worker takes it up and waits, suspended, on the approval already on screen.
    await w.engineWith().start({ concurrency: 4 });
    await waitFor(async () => {
      const current = await w.store.transaction((tx) => tx.runs.findById(run.id));
      const checkpoint = await w.checkpointOf(run.id);
      return current?.status === 'running' && checkpoint?.approvalId === approval.id && checkpoint.step > 2;
    });
    expect(cardsOf(w.platform.threads.list()).approvals).toEqual([{ id: approval.id, status: 'pending' }]);
    expect(model.requests).toHaveLength(1);

    expect(
      await w.frontEnd.act({ kind: 'approval', approvalId: approval.id, verdict: 'approve' }, you),
    ).toEqual({ ok: true });
    await waitFor(async () => w.thread().includes('engineer: r2 is out'));
    expect(toolRuns(w.countFile)).toEqual(['release r2']);
    expect(model.requests).toHaveLength(2);
    expect(cardsOf(w.platform.threads.list()).approvals).toEqual([{ id: approval.id, status: 'approved' }]);
  });
});
