import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import type { Redis } from 'ioredis';
import { createJobQueue } from '../../../src/adapters/queue/create-job-queue';
import { createRedisClient } from '../../../src/adapters/redis/redis-connection-options';
import { AnthropicRunner } from '../../../src/adapters/runners/anthropic-runner';
import { FileWorkspaceDirectory } from '../../../src/adapters/workspace-directory/file-workspace-directory';
import { TerminalChat, TerminalPlatform, type ThreadEntry } from '../../../src/bots/terminal';
import { DEFAULT_TIMINGS } from '../../../src/core/engine/engine-timings';
import type { RunJob } from '../../../src/core/engine/run-job';
import { createToolKit } from '../../../src/core/engine/tool-kit/turn-tool-kit';
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
const API_KEY = 'sk-ant-stop-parked-test';
const you = { platform: 'terminal' as const, workspace: { slug: 'default' }, senderId: 'you' };

/** The last posted content of `kind` in the thread entries. */
const posted = (entries: readonly ThreadEntry[], kind: string) =>
  entries.flatMap((e) => (e.kind === 'posted' && e.message.content.kind === kind ? [e.message.content] : []));

describe('P15, T2: a Stop on a turn no process holds (parked after its worker was SIGKILLed, or queued) ends it at once (PostgreSQL + BullMQ)', () => {
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
    queueName = `stop-parked-${randomUUID().slice(0, 8)}`;
    prefix = `summon-test-stop-parked-${randomUUID().slice(0, 8)}`;
  });
  afterEach(async () => {
    await child?.kill('SIGKILL');
    child = undefined;
    for (const engine of engines.splice(0)) await engine.close();
    await standIn?.close();
    await db?.dispose();
    await dataDir?.remove();
    await deleteKeysUnder(redis, prefix);
  });
  afterAll(async () => {
    await redis.quit();
  });

  /** The database, the chat every process posts to, the model stand-in, a child worker (or none). */
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
    // The front end stores what people type and takes their clicks; it runs no turn.
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
    const entries = () => platform.threads.list().flatMap((t) => t.entries);
    const thread = () => entries().map(describeEntry);
    const runs = () =>
      store.transaction((tx) => tx.runs.listByStatus(['queued', 'running', 'succeeded', 'failed']));
    const runOf = (id: string) => store.transaction((tx) => tx.runs.findById(id));
    const checkpointOf = (runId: string) =>
      store.inWorkspace(local.workspace.id, (tx) => tx.checkpoints.find(runId));
    /** The card's ref is stored just after it is shown: killed before that, nobody could edit it. */
    const cardRefStored = (awaited: { kind: 'approval' | 'question'; id: string }) =>
      waitFor(() =>
        store.inWorkspace(local.workspace.id, async (tx) => {
          const record =
            awaited.kind === 'approval'
              ? await tx.approvals.findById(awaited.id)
              : await tx.questions.findById(awaited.id);
          return record?.platformCardRef ?? null;
        }),
      );
    const onlyRun = async () => {
      const [run, ...others] = await runs();
      expect(others).toEqual([]);
      if (run === undefined) throw new Error('no run');
      return run;
    };
    /** The child worker dies while the run waits; a new worker's recovery parks the run. */
    const parkAfterKill = async (runId: string) => {
      expect(await child?.kill('SIGKILL')).toEqual({ code: null, signal: 'SIGKILL' });
      child = undefined;
      await engineWith().start({ concurrency: 4 });
      await waitFor(async () => (await checkpointOf(runId))?.parkedAt != null);
      expect(await runOf(runId)).toMatchObject({ status: 'running', liveness: 'blocked' });
    };
    return {
      store,
      platform,
      chat,
      frontEnd,
      engineWith,
      countFile,
      entries,
      thread,
      runs,
      runOf,
      checkpointOf,
      onlyRun,
      cardRefStored,
      parkAfterKill,
    };
  }

  it('P15, M14, G4, T2: Stop on a turn parked on its approval: stopped by who, card closed, the later click refused, the tool never runs, nobody woken', async () => {
    const w = await world();
    const model = standIn as AnthropicStandIn;
    model.script({ kind: 'stream', blocks: [{ type: 'tool_use', name: 'release', input: { tag: 'r1' } }] });
    await w.chat.handleLine('@engineer release r1');
    const run = await w.onlyRun();
    const approval = await waitFor(async () => cardsOf(w.platform.threads.list()).approvals[0] ?? null);
    await waitFor(async () => (await w.checkpointOf(run.id))?.approvalId === approval.id);
    await w.cardRefStored({ kind: 'approval', id: approval.id });
    await w.parkAfterKill(run.id);

    // Someone writes in the thread meanwhile: it waits behind the parked turn, which holds the lane.
    model.script({ kind: 'stream', blocks: [{ type: 'text', chunks: ['here'] }] });
    await w.chat.handleLine('/thread 1');
    await w.chat.handleLine('@engineer still there?');
    // The Stop lands on the front end, which holds no turn: the parked run ends there and then.
    expect(await w.frontEnd.act({ kind: 'stop-run', runId: run.id }, you)).toEqual({ ok: true });
    expect(await w.runOf(run.id)).toMatchObject({
      status: 'failed',
      liveness: 'failed',
      error: 'Stopped by @you',
    });
    expect(await w.checkpointOf(run.id)).toBeNull();
    const [status] = posted(w.entries(), 'status');
    expect(status).toMatchObject({ card: { state: 'stopped', headline: 'Stopped by @you' } });
    expect(status?.kind === 'status' && status.card.stopRunId).toBeUndefined();
    const [card] = posted(w.entries(), 'approval');
    expect(card).toMatchObject({
      card: { status: 'denied', details: expect.arrayContaining(['Stopped by @you']) },
    });

    // The old cards' buttons do nothing harmful: a sentence each, nothing resumes.
    const click = await w.frontEnd.act(
      { kind: 'approval', approvalId: approval.id, verdict: 'approve' },
      you,
    );
    expect(click).toMatchObject({ ok: false, reason: expect.stringMatching(/\w+ \w+/) });
    expect(await w.frontEnd.act({ kind: 'stop-run', runId: run.id }, you)).toEqual({
      ok: false,
      reason: 'This turn has already ended.',
    });
    // The message that waited in the thread behind the parked turn runs now, as a turn of its
    // own (so a stray resume would have shown by then): the stopped one did not.
    await waitFor(async () => w.thread().includes('engineer: here'));
    expect(toolRuns(w.countFile)).toEqual([]);
    expect(model.requests).toHaveLength(2);
    expect(await w.runOf(run.id)).toMatchObject({ status: 'failed', error: 'Stopped by @you' });
    // M14: nobody was woken by the stopped turn (the one other run is the person's own).
    expect((await w.runs()).map((r) => r.startedByAgentId)).toEqual([null, null]);
  });

  it('P15, N13, T2: /stop on a turn parked on its question: stopped by who, the card says so, a later answer refused, nothing resumes', async () => {
    const w = await world();
    const model = standIn as AnthropicStandIn;
    model.script({
      kind: 'stream',
      blocks: [
        { type: 'tool_use', name: 'ask_question', input: { text: 'Ship r3?', options: ['yes', 'no'] } },
      ],
    });
    await w.chat.handleLine('@engineer ship r3 if they agree');
    const run = await w.onlyRun();
    const question = await waitFor(async () => (await w.checkpointOf(run.id))?.awaits ?? null);
    await waitFor(async () => w.thread().includes('question(pending) engineer: Ship r3?'));
    await w.cardRefStored({ kind: 'question', id: question.id });
    await w.parkAfterKill(run.id);

    // The terminal's `/stop`, for the thread's turns whose card still says working.
    await w.chat.handleLine('/thread 1');
    await w.chat.handleLine('/stop');
    expect(await w.runOf(run.id)).toMatchObject({ status: 'failed', error: 'Stopped by @you' });
    expect(await w.checkpointOf(run.id)).toBeNull();
    expect(posted(w.entries(), 'question')).toEqual([
      expect.objectContaining({ card: expect.objectContaining({ status: 'cancelled', stoppedBy: 'you' }) }),
    ]);
    expect(posted(w.entries(), 'status')).toEqual([
      expect.objectContaining({
        card: expect.objectContaining({ state: 'stopped', headline: 'Stopped by @you' }),
      }),
    ]);
    expect(await w.frontEnd.act({ kind: 'answer', questionId: question.id, answer: '1' }, you)).toEqual({
      ok: false,
      reason: 'That question is no longer waiting for an answer (cancelled).',
    });
    expect(await w.checkpointOf(run.id)).toBeNull();
    expect(await w.runOf(run.id)).toMatchObject({ status: 'failed', error: 'Stopped by @you' });
    expect(model.requests).toHaveLength(1);
  });

  it('P15, T2: Stop racing the approval click that resumes a parked turn: one of them has it, the call runs at most once, the run ends once', async () => {
    const w = await world();
    const model = standIn as AnthropicStandIn;
    model.script(
      { kind: 'stream', blocks: [{ type: 'tool_use', name: 'release', input: { tag: 'r2' } }] },
      { kind: 'stream', blocks: [{ type: 'text', chunks: ['r2 is out'] }] },
    );
    await w.chat.handleLine('@engineer release r2');
    const run = await w.onlyRun();
    const approval = await waitFor(async () => cardsOf(w.platform.threads.list()).approvals[0] ?? null);
    await waitFor(async () => (await w.checkpointOf(run.id))?.approvalId === approval.id);
    await w.cardRefStored({ kind: 'approval', id: approval.id });
    await w.parkAfterKill(run.id);

    const [stop, click] = await Promise.all([
      w.frontEnd.act({ kind: 'stop-run', runId: run.id }, you),
      w.frontEnd.act({ kind: 'approval', approvalId: approval.id, verdict: 'approve' }, you),
    ]);
    expect(stop).toEqual({ ok: true });
    const ended = await waitFor(async () => {
      const current = await w.runOf(run.id);
      return current?.status === 'failed' || current?.status === 'succeeded' ? current : null;
    });
    // Whoever came second: the click found the approval withdrawn, or the Stop found the turn
    // queued or running again; either way it is stopped, or it had finished first.
    if (ended.status === 'failed') expect(ended.error).toBe('Stopped by @you');
    if (!click.ok) expect(ended.status).toBe('failed');
    expect(toolRuns(w.countFile).length).toBeLessThanOrEqual(1);
    if (!click.ok) expect(toolRuns(w.countFile)).toEqual([]);
    await waitFor(async () => (await w.checkpointOf(run.id)) === null);
    expect((await w.runs()).map((r) => r.id)).toEqual([run.id]);
    // One status card, ended; never a second turn of the run.
    const statuses = posted(w.entries(), 'status');
    expect(statuses).toHaveLength(1);
    await waitFor(async () => {
      const [card] = posted(w.entries(), 'status');
      return card?.kind === 'status' && card.card.state !== 'working';
    });
  });

  it('P15, T2: a Stop while a resume holds the parked turn mid-transaction waits for it, then ends the run it left queued: it never runs', async () => {
    const w = await world();
    const model = standIn as AnthropicStandIn;
    model.script({ kind: 'stream', blocks: [{ type: 'tool_use', name: 'release', input: { tag: 'r5' } }] });
    await w.chat.handleLine('@engineer release r5');
    const run = await w.onlyRun();
    const approval = await waitFor(async () => cardsOf(w.platform.threads.list()).approvals[0] ?? null);
    await waitFor(async () => (await w.checkpointOf(run.id))?.approvalId === approval.id);
    await w.cardRefStored({ kind: 'approval', id: approval.id });
    await w.parkAfterKill(run.id);

    // What `requeueFromCheckpoint` does, held open between its compare-and-set and its commit:
    // the Stop, started meanwhile, cannot take the parked turn (the row is the resume's).
    let unparked = () => {};
    let release = () => {};
    const took = new Promise<void>((resolve) => {
      unparked = resolve;
    });
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const resuming = w.store.inWorkspace(run.workspaceId, async (tx) => {
      expect(await tx.checkpoints.unpark(run.id, approval.id)).toBe(true);
      unparked();
      await released;
      await tx.runs.update(run.id, { status: 'queued', liveness: 'ok', lastEventAt: new Date() });
    });
    await took;
    const stopping = w.frontEnd.act({ kind: 'stop-run', runId: run.id }, you);
    // Long enough for the Stop to reach the row the resume holds (it waits there, or comes after).
    await new Promise((resolve) => setTimeout(resolve, 300));
    release();
    await resuming;
    expect(await stopping).toEqual({ ok: true });
    expect(await w.runOf(run.id)).toMatchObject({ status: 'failed', error: 'Stopped by @you' });
    expect(await w.checkpointOf(run.id)).toBeNull();
    expect(cardsOf(w.platform.threads.list()).approvals).toEqual([{ id: approval.id, status: 'denied' }]);

    // The resume's job arrives after all: the worker finds the run ended, and runs the lane's next turn only.
    const queue = createJobQueue<RunJob>({ name: queueName, redisUrl: TEST_REDIS_URL, prefix });
    await queue.enqueue({ id: `${run.id}-resume-late`, data: { runId: run.id } });
    await queue.close();
    model.script({ kind: 'stream', blocks: [{ type: 'text', chunks: ['next one'] }] });
    await w.chat.handleLine('@engineer next?');
    await waitFor(async () => w.thread().includes('engineer: next one'));
    expect(toolRuns(w.countFile)).toEqual([]);
    expect(model.requests).toHaveLength(2);
    expect(await w.runOf(run.id)).toMatchObject({ status: 'failed', error: 'Stopped by @you' });
  });

  it('P15: Stop on a queued turn that no worker has taken: stopped by who, and it never runs', async () => {
    const w = await world({ child: false });
    const model = standIn as AnthropicStandIn;
    await w.chat.handleLine('@engineer do it later');
    const run = await w.onlyRun();
    expect(run.status).toBe('queued');
    expect(await w.frontEnd.act({ kind: 'stop-run', runId: run.id }, you)).toEqual({ ok: true });
    expect(await w.runOf(run.id)).toMatchObject({ status: 'failed', error: 'Stopped by @you' });
    // A worker comes up and finds its job: the run is not claimed, the model never asked.
    await w.engineWith().start({ concurrency: 2 });
    model.script({ kind: 'stream', blocks: [{ type: 'text', chunks: ['second'] }] });
    await w.chat.handleLine('@engineer and now?');
    await waitFor(async () => w.thread().includes('engineer: second'));
    expect(model.requests).toHaveLength(1);
    expect(await w.runOf(run.id)).toMatchObject({
      status: 'failed',
      error: 'Stopped by @you',
      startedAt: null,
    });
  });
});
