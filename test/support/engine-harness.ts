import { randomUUID } from 'node:crypto';
import { PassThrough } from 'node:stream';
import { createJobQueue } from '../../src/adapters/queue/create-job-queue';
import { createRedisClient } from '../../src/adapters/redis/redis-connection-options';
import { RedisPairRateLimiter } from '../../src/adapters/redis/redis-pair-rate-limiter';
import { RedisWaitSignals } from '../../src/adapters/redis/redis-wait-signals';
import { FileWorkspaceDirectory } from '../../src/adapters/workspace-directory/file-workspace-directory';
import { TerminalChat, TerminalPlatform, type ThreadEntry } from '../../src/bots/terminal';
import type { TurnToolKit } from '../../src/core/engine/engine-deps';
import { DEFAULT_TIMINGS, type EngineTimings } from '../../src/core/engine/engine-timings';
import type { RunJob } from '../../src/core/engine/run-job';
import type { McpToolsDeps } from '../../src/core/engine/tool-kit/tool-kit-deps';
import { TurnEngine } from '../../src/core/engine/turn-engine';
import type { RunRecord } from '../../src/core/model/records';
import type { ChatEngine } from '../../src/core/ports/chat-engine';
import type { ChatPlatform } from '../../src/core/ports/chat-platform';
import type { Clock } from '../../src/core/ports/clock';
import type { EgressProxies } from '../../src/core/ports/egress';
import type { JobQueue } from '../../src/core/ports/job-queue';
import { type Logger, silentLogger } from '../../src/core/ports/logger';
import type { Metrics } from '../../src/core/ports/metrics';
import type { PairRateLimiter } from '../../src/core/ports/pair-rate-limiter';
import type { RunWorkspace } from '../../src/core/ports/run-workspace';
import type { Runner, RunnerResolver } from '../../src/core/ports/runner';
import type { Store, StoreTx } from '../../src/core/ports/store';
import type { WaitSignals } from '../../src/core/ports/wait-signals';
import type { WorkspaceDirectory } from '../../src/core/ports/workspace-directory';
import { InProcessWaitSignals } from '../../src/core/waits/in-process-wait-signals';
import { InMemoryPairRateLimiter } from '../../src/core/wake/in-memory-pair-rate-limiter';
import { ensureLocalChat } from '../../src/core/workspace/local-chat';
import { deleteKeysUnder } from '../integration/queue/redis-test-prefix';
import { makeTempDir } from './temp-dir';
import { openTestDatabase } from './test-database';

/** What a test's engine is built on; what it leaves out is as every engine scenario has it. */
export interface EngineParts {
  store: Store;
  /** The `terminal` chat every engine of the test posts to. */
  platform: ChatPlatform;
  queue: JobQueue<RunJob>;
  runners: RunnerResolver;
  directory: WorkspaceDirectory;
  timings: EngineTimings;
  tools?: TurnToolKit;
  /** T1: absent: the engine's own, in-process. */
  waits?: WaitSignals;
  /** M20: absent: an in-memory one of its own. */
  rateLimiter?: PairRateLimiter;
  /** Absent: real time. */
  clock?: Clock;
  /** Absent: silent. */
  logger?: Logger;
  metrics?: Metrics;
  workspaces?: RunWorkspace;
  egress?: EgressProxies;
  /** E1, E2: Summon's MCP client and the turns' servers. */
  mcp?: McpToolsDeps;
}

/**
 * A turn engine as a test's process would build one: its store, chat, queue and runners from
 * the test, with no relay name. Not started: the test starts it (or leaves it a front end).
 */
export function buildEngine(parts: EngineParts): TurnEngine {
  const { platform, rateLimiter, clock, logger, ...given } = parts;
  return new TurnEngine({
    ...given,
    platforms: new Map([['terminal', platform]]),
    rateLimiter: rateLimiter ?? new InMemoryPairRateLimiter(),
    clock: clock ?? { now: () => new Date() },
    logger: logger ?? silentLogger,
    relayName: null,
  });
}

/** The two set-ups every engine scenario runs on: the embedded default and the scaled-out one. */
export const ENGINE_SETUPS = [
  { name: 'PGlite + in-process queue', database: 'pglite', redis: false },
  { name: 'PostgreSQL + BullMQ', database: 'postgres', redis: true },
] as const;
export type EngineSetup = (typeof ENGINE_SETUPS)[number];

const defaultRedisUrl = () => process.env.SUMMON_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/**
 * The real engine, driven through the real terminal platform, on a real database and queue,
 * with a scripted runner in place of a model.
 */
export async function openEngineHarness(
  setup: EngineSetup,
  runner: Runner,
  timings: Partial<EngineTimings> = {},
  options: {
    tools?: TurnToolKit;
    workspaces?: RunWorkspace;
    /** X2: the runs' egress proxies (the sandbox's only way out besides the git gateway). */
    egress?: EgressProxies;
    logger?: Logger;
    concurrency?: number;
    /** The engine's clock (a `ManualClock` drives approval expiries, G4); real time by default. */
    clock?: Clock;
    /** T2 outage tests: a PostgreSQL server and a Redis of the test's own, to restart. */
    postgresServerUrl?: string;
    redisUrl?: string;
    /** What the engines count (`summon_turn_wakeups_total`: turns started here or queued, T3). */
    metrics?: Metrics;
    /** The store each engine is given, from the test database's (a test's own failures in front of it). */
    wrapStore?: (store: Store) => Store;
    /** E1, E2: Summon's MCP client and the turns' servers. */
    mcp?: McpToolsDeps;
  } = {},
) {
  const db = await openTestDatabase(
    setup.database,
    options.postgresServerUrl === undefined ? {} : { serverUrl: options.postgresServerUrl },
  );
  const redisUrl = () => options.redisUrl ?? defaultRedisUrl();
  const dataDir = await makeTempDir();
  const store = db.database.store;
  const local = await store.transaction((tx) => ensureLocalChat(tx));
  const output = new PassThrough();
  let screen = '';
  output.on('data', (chunk: Buffer) => {
    screen += chunk.toString();
  });
  const clock: Clock = options.clock ?? { now: () => new Date() };
  const now = () => clock.now();
  const platform = new TerminalPlatform({ output, now });
  const queueName = `turns-${randomUUID().slice(0, 8)}`;
  const prefix = `summon-test-${randomUUID().slice(0, 8)}`;
  const directory = new FileWorkspaceDirectory(dataDir.path);
  // M20: the scaled-out set-up shares its wake counts through Redis, as in production.
  const redis = setup.redis ? createRedisClient(redisUrl()) : null;
  const limiterPrefix = `summon-test-${randomUUID().slice(0, 8)}:`;
  const rateLimiter =
    redis === null
      ? new InMemoryPairRateLimiter()
      : new RedisPairRateLimiter(redis, { keyPrefix: limiterPrefix });
  // T1: the scaled-out set-up wakes waits through Redis pub/sub, as in production; each engine
  // (a process) has its own subscriber.
  const signals: RedisWaitSignals[] = [];
  const waitsFor = (): WaitSignals => {
    if (redis === null) return new InProcessWaitSignals();
    const waits = new RedisWaitSignals(redis, { channelPrefix: limiterPrefix });
    signals.push(waits);
    return waits;
  };
  let waits = waitsFor();
  const newEngine = (turnRunner: Runner, engineWaits: WaitSignals = waits) =>
    buildEngine({
      store: options.wrapStore?.(store) ?? store,
      platform,
      queue: createJobQueue<RunJob>({
        name: queueName,
        redisUrl: setup.redis ? redisUrl() : undefined,
        prefix,
        retry: { attempts: 2, backoffMs: 50 },
        closeTimeoutMs: 2000,
      }),
      runners: () => turnRunner,
      directory,
      timings: { ...DEFAULT_TIMINGS, statusEditIntervalMs: 20, ...timings },
      rateLimiter,
      clock,
      waits: engineWaits,
      ...(options.tools === undefined ? {} : { tools: options.tools }),
      ...(options.workspaces === undefined ? {} : { workspaces: options.workspaces }),
      ...(options.egress === undefined ? {} : { egress: options.egress }),
      ...(options.logger === undefined ? {} : { logger: options.logger }),
      ...(options.metrics === undefined ? {} : { metrics: options.metrics }),
      ...(options.mcp === undefined ? {} : { mcp: options.mcp }),
    });
  let engine = newEngine(runner);
  const peers: TurnEngine[] = [];
  /** P16, T1: set by `receiveInFrontEnd`: the engine people's messages reach, running no turns. */
  let receiver: TurnEngine | null = null;
  await engine.start({ concurrency: options.concurrency ?? 4 });
  // The chat talks to whichever engine is current, so a restart keeps its selected thread.
  const current: ChatEngine = {
    receive: (message) => (receiver ?? engine).receive(message),
    act: (action, actor) => engine.act(action, actor),
  };
  const chat = new TerminalChat({
    input: new PassThrough(),
    platform,
    engine: current,
    now,
    newId: randomUUID,
  });

  const read = <T>(work: (tx: StoreTx) => Promise<T>) => store.inWorkspace(local.workspace.id, work);
  const runs = () =>
    store.transaction((tx) => tx.runs.listByStatus(['queued', 'running', 'succeeded', 'failed']));
  const agentId = async (name: string) =>
    (await read((tx) => tx.agents.findByName(local.workspace.id, name)))?.id ?? `missing ${name}`;

  return {
    db,
    store,
    /** The current engine (the one `restart` started last). */
    get engine() {
      return engine;
    },
    /**
     * A restarted worker: a new engine on the same database, platform and queue (BullMQ: the
     * same name and prefix; in-process: a fresh queue, as a new process has), started as a
     * process starts it (recovering what the last one left). Close the current engine first.
     */
    restart: async (nextRunner: Runner = runner) => {
      waits = waitsFor();
      engine = newEngine(nextRunner);
      await engine.start({ concurrency: options.concurrency ?? 4 });
      return engine;
    },
    /**
     * T1: a second engine, as another process on the same database and queue would run one
     * (PostgreSQL + BullMQ: its own Redis subscriber). Closed by `close()`.
     */
    openPeer: async (peerRunner: Runner = runner) => {
      const peer = newEngine(peerRunner, waitsFor());
      await peer.start({ concurrency: options.concurrency ?? 4 });
      peers.push(peer);
      return peer;
    },
    /**
     * From now on people's messages reach another engine that runs no turns, as a `web` process
     * receives them while a worker runs the turns (PostgreSQL + BullMQ: its own Redis subscriber
     * and its own connection to the queue). Only for the scaled-out set-up: in-process, a second
     * engine's queue is its own.
     */
    receiveInFrontEnd: () => {
      if (!setup.redis) throw new Error('a front end of its own needs the PostgreSQL + BullMQ set-up');
      receiver = newEngine(runner, waitsFor());
      peers.push(receiver);
    },
    platform,
    local,
    dataDir: dataDir.path,
    /** The working directory of an agent of the local workspace (its folder). */
    agentDir: (name: string) => directory.agentDir(local.workspace.slug, name),
    read,
    runs,
    agentId,
    screen: () => screen,
    /** Types a line as member `you`; the engine has stored and enqueued its runs when this resolves. */
    type: (line: string) => chat.handleLine(line),
    /** Entries of terminal thread n, as the person sees them. */
    thread: (n: number): readonly ThreadEntry[] =>
      platform.threads.list().find((t) => t.number === n)?.entries ?? [],
    /** Waits until every stored run has ended and nothing is queued. */
    settled: async (count?: number) =>
      waitFor(async () => {
        const all = await runs();
        const done = all.every((r) => r.status === 'succeeded' || r.status === 'failed');
        return done && (count === undefined || all.length === count) ? all : null;
      }),
    close: async () => {
      for (const peer of peers) await peer.close();
      await engine.close();
      for (const subscriber of signals) await subscriber.close();
      if (redis !== null) {
        // The queue's own keys too: a test run leaves nothing behind in Redis.
        await deleteKeysUnder(redis, prefix);
        await deleteKeysUnder(redis, limiterPrefix);
        await redis.quit();
      }
      await db.dispose();
      await dataDir.remove();
    },
  };
}

export type EngineHarness = Awaited<ReturnType<typeof openEngineHarness>>;

/**
 * Polls until `check` returns something other than null/false, or fails after `timeoutMs`. The
 * bound is for liveness, not speed: generous, because CI runs two jest workers on a busy machine.
 */
export async function waitFor<T>(
  check: () => Promise<T | null | false>,
  timeoutMs = 30_000,
  describeWait?: () => string,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== null && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms${describeWait?.() ?? ''}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export { held } from './scripted-runner';

export const byAgent = (runs: RunRecord[], agentId: string) => runs.filter((r) => r.agentId === agentId);

/** What an entry shows: `engineer: text`, `system: text`, `note(open|folded) …`, `status(done) …`. */
export function describeEntry(entry: ThreadEntry): string {
  if (entry.kind === 'person') return `${entry.sender}: ${entry.text}`;
  const { as, content } = entry.message;
  const who = as.kind === 'agent' ? as.name : 'system';
  if (content.kind === 'text') return `${who}: ${content.text}`;
  if (content.kind === 'status') return `status(${content.card.state}) ${who}`;
  if (content.kind === 'note')
    return `note(${content.card.open ? 'open' : 'folded'}) ${who}: ${content.card.row}`;
  if (content.kind === 'question') {
    const { card } = content;
    const answered = card.status === 'answered' ? ` = ${card.answer} (${card.answeredBy})` : '';
    return `question(${card.status}) ${who}: ${card.text}${answered}`;
  }
  return `approval(${content.card.status}) ${content.card.summary}`;
}
