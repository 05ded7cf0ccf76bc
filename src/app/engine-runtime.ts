import { FolderAttachmentShelf } from '../adapters/attachments/folder-attachment-shelf';
import type { RunEgressProxies } from '../adapters/egress-proxy/run-egress-proxies';
import type { McpClientPool } from '../adapters/mcp/mcp-client-pool';
import { meteredRunners } from '../adapters/metrics/metered-runners';
import { EventLoopLoad } from '../adapters/process/event-loop-load';
import { createJobQueue } from '../adapters/queue/create-job-queue';
import { createRedisClient } from '../adapters/redis/redis-connection-options';
import { RedisLiveCardRelay } from '../adapters/redis/redis-live-card-relay';
import { RedisPairRateLimiter } from '../adapters/redis/redis-pair-rate-limiter';
import { RedisWaitSignals } from '../adapters/redis/redis-wait-signals';
import { relayPairLimiter } from '../adapters/redis/relay-pair-limiter';
import { RelayHttpClient } from '../adapters/relay-http/relay-http-client';
import { type DiscoveredModel, describeDiscovery, discoverModel } from '../adapters/runners/model-discovery';
import { createRunnerResolver } from '../adapters/runners/runner-resolver';
import type { ServeRole } from '../config/serve-role';
import type { RunActivityBoard } from '../core/agents/run-activity-board';
import { startAuditRetention } from '../core/audit/audit-log';
import type { TurnToolKit } from '../core/engine/engine-deps';
import { DEFAULT_TIMINGS, type EngineTimings } from '../core/engine/engine-timings';
import type { RunJob } from '../core/engine/run-job';
import { TurnEngine } from '../core/engine/turn-engine';
import type { Platform } from '../core/model/platform';
import type { ChatPlatform } from '../core/ports/chat-platform';
import { systemClock } from '../core/ports/clock';
import type { JobQueue } from '../core/ports/job-queue';
import type { PairRateLimiter } from '../core/ports/pair-rate-limiter';
import type { RunWorkspace } from '../core/ports/run-workspace';
import type { RunnerResolver } from '../core/ports/runner';
import type { TurnChecks } from '../core/ports/turn-checks';
import type { WaitSignals } from '../core/ports/wait-signals';
import type { PullRequestLinks } from '../core/pull-requests/pull-request-links';
import { RelayInbound } from '../core/relays/relay-inbound';
import { RoutineScheduler } from '../core/routines/routine-scheduler';
import { InProcessWaitSignals } from '../core/waits/in-process-wait-signals';
import { InMemoryPairRateLimiter } from '../core/wake/in-memory-pair-rate-limiter';
import { createEgressProxies } from './egress-runtime';
import { createPullRequests, createRunWorkspace } from './git-gateway-runtime';
import { createMcpClients } from './mcp-clients-runtime';
import { createPullRequestLinks } from './pull-request-links-runtime';

import type { Runtime } from './runtime';
import { logSandboxStatus } from './sandbox-status';
import { createTurnTools } from './turn-tools';

export const TURN_QUEUE = 'summon-turns';

export interface EngineRuntime {
  engine: TurnEngine;
  /** R1–R3: what this relay does with verified requests of paired relays. */
  relayInbound: RelayInbound;
  /** A10: what agents without an adapter run on (discovered at start); absent when runners were handed in. */
  model?: DiscoveredModel;
  /** T1: the engine's wait signals (a run's end, a decision), for waits outside the engine (E6). */
  signals: WaitSignals;
  /** P22, P23: chat threads ⇄ their agents' pull requests (GitHub's deliveries go to `handle`). */
  pullRequestLinks: PullRequestLinks;
  close(): Promise<void>;
}

export interface StartEngineOptions {
  runners?: RunnerResolver;
  tools?: TurnToolKit;
  /** Default: the gateway's run workspaces when GitHub is configured; null: none (no gateway served). */
  workspaces?: RunWorkspace | null;
  timings?: Partial<EngineTimings>;
  concurrency?: number;
  queueName?: string;
  /** X2: default: a proxy per run when the sandbox is on; null: none (commands classified by text). */
  egress?: RunEgressProxies | null;
  /** A13: the run activity board shown on App Home (presence). */
  activity?: RunActivityBoard;
  /** `web`: routes the inbox, runs no turns; `worker`: runs turns, routes nothing; default `all`. */
  role?: ServeRole;
  /** E2: default: Summon's MCP client in a process that runs turns; null: none. */
  mcp?: McpClientPool | null;
  /** P21: GitHub's check runs for turns and approvals on pull requests; absent: none. */
  checks?: TurnChecks;
}

/** What the engine shares with the rest of the process: its queue, Redis, waits and limits. */
interface EngineBackends {
  queue: JobQueue<RunJob>;
  redis: ReturnType<typeof createRedisClient> | null;
  rateLimiter: PairRateLimiter;
  waits: WaitSignals;
  egress: RunEgressProxies | null;
  model: DiscoveredModel | undefined;
  relays: RelayHttpClient | undefined;
  /** E2: the MCP servers' connections of this process's turns (none in a `web` process). */
  mcp: McpClientPool | null;
}

/**
 * The turn engine with its queue (BullMQ with REDIS_URL, in-process otherwise) and its wake
 * rate limiter (Redis-backed with REDIS_URL, so every worker shares one count, M20).
 */
export async function startEngine(
  runtime: Runtime,
  platforms: ReadonlyMap<Platform, ChatPlatform>,
  options: StartEngineOptions = {},
): Promise<EngineRuntime> {
  const { config } = runtime;
  // X4: said at every start whether agents' commands are confined (refused when they cannot be).
  await logSandboxStatus(runtime);
  const role = options.role ?? 'all';
  const backends = await engineBackends(runtime, options, role);
  const { queue, redis, waits, egress, model, mcp } = backends;
  // O5: with Redis, the console of a web process shows the cards of turns workers run.
  const liveCards = redis === null ? null : new RedisLiveCardRelay(redis, { logger: runtime.logger });
  runtime.liveCards.attach(liveCards);
  // P23: a failing suite wakes the pull request's agent through this engine.
  const pullRequestLinks = createPullRequestLinks(runtime, platforms, (job) => engine.wake(job));
  const engine = createTurnEngine(runtime, platforms, options, backends, pullRequestLinks);
  // T3: the store's connections opened and their hot statements prepared before the first
  // turn or routed row, so a burst soon after the start costs what steady traffic does.
  await runtime.store.warm();
  // T3: active turns at once (SUMMON_CONCURRENCY, `--concurrency`); waiting turns hold none.
  await engine.start({
    concurrency: options.concurrency ?? config.concurrency,
    runTurns: role !== 'web',
    routeInbox: role !== 'worker',
  });
  // T1, T3: the queue's depth and this process's waiting and active turns, read at scrape time.
  runtime.metrics.observe({
    queueDepth: () => queue.depth(),
    waitingTurns: () => engine.slotStats().suspended,
    activeTurns: () => engine.slotStats().active,
  });
  // W2, T6: a process that runs turns fires routines at their times (once across all of them).
  const routines =
    role === 'web'
      ? null
      : new RoutineScheduler({
          store: runtime.store,
          platforms,
          clock: systemClock,
          logger: runtime.logger.child({ component: 'routines' }),
          wake: (job) => engine.wake(job),
        });
  routines?.start();
  // G4: the git gateway posts its approval cards through this engine.
  runtime.engineApprovals.attach(engine);
  // O4: audit events past SUMMON_AUDIT_RETENTION_DAYS go, where turns run.
  const stopRetention =
    role === 'web'
      ? async () => {}
      : startAuditRetention({ ...runtime, clock: systemClock }, config.auditRetentionDays);
  const relayInbound = createRelayInbound(runtime, platforms, backends);
  return {
    engine,
    relayInbound,
    signals: waits,
    pullRequestLinks,
    ...(model === undefined ? {} : { model }),
    close: async () => {
      await routines?.close();
      runtime.engineApprovals.detach(engine);
      await stopRetention();
      await engine.close();
      // E3: every MCP server process ends with the engine.
      await mcp?.close();
      await egress?.closeAll();
      if (waits instanceof RedisWaitSignals) await waits.close();
      runtime.liveCards.attach(null);
      await liveCards?.close();
      await redis?.quit();
    },
  };
}

/** The queue, Redis, limits and waits the engine works with, and the model agents run on. */
async function engineBackends(
  runtime: Runtime,
  options: StartEngineOptions,
  role: ServeRole,
): Promise<EngineBackends> {
  const { config, logger } = runtime;
  const queue = createJobQueue<RunJob>({
    name: options.queueName ?? TURN_QUEUE,
    redisUrl: config.redisUrl,
    logger,
  });
  const redis = config.redisUrl === undefined ? null : createRedisClient(config.redisUrl);
  const rateLimiter: PairRateLimiter =
    redis === null ? new InMemoryPairRateLimiter() : new RedisPairRateLimiter(redis);
  // X2: each run's filtering egress proxy, the sandbox's only way out besides the gateway.
  const egress = options.egress === undefined ? createEgressProxies(config, logger) : options.egress;
  // T1: with Redis, a click handled by any process wakes the turn waiting in this one.
  const waits = redis === null ? new InProcessWaitSignals() : new RedisWaitSignals(redis, { logger });
  // A10: agents without an adapter run on the first model found (key, server, Ollama, claude CLI).
  // A web process runs no turn: it needs no model.
  const model =
    options.runners === undefined && role !== 'web' ? await discoverModel(config.models) : undefined;
  if (model !== undefined) logger.info({ model: model.kind }, describeDiscovery(model));
  // R2: signed requests to paired relays, for `agent@relay` (names go in chains: M20).
  const relays =
    config.relayName === undefined
      ? undefined
      : new RelayHttpClient({
          store: runtime.store,
          clock: systemClock,
          logger: logger.child({ component: 'relays' }),
          relayName: config.relayName,
          publicUrl: config.publicUrl,
          defaultModel: model !== undefined && 'model' in model ? (model.model ?? null) : null,
        });
  // E2: Summon is the MCP client of built-in turns; a web process runs none.
  const mcp =
    options.mcp !== undefined
      ? options.mcp
      : role === 'web'
        ? null
        : createMcpClients(config, logger, process.env, runtime.store);
  return { queue, redis, rateLimiter, waits, egress, model, relays, mcp };
}

/** The turn engine's dependencies, each a default of the runtime unless handed in. */
function createTurnEngine(
  runtime: Runtime,
  platforms: ReadonlyMap<Platform, ChatPlatform>,
  options: StartEngineOptions,
  { queue, rateLimiter, waits, egress, model, relays, mcp }: EngineBackends,
  pullRequestLinks: PullRequestLinks,
): TurnEngine {
  const { config, logger } = runtime;
  return new TurnEngine({
    store: runtime.store,
    platforms,
    queue,
    // Model latency (and tokens, when reported) per agent, around every runner call.
    runners: meteredRunners(
      options.runners ??
        createRunnerResolver(config.models, runtime.launcher, config.sandbox.readOnlyPaths, model),
      runtime.metrics,
    ),
    // A9: the built-in harness's tools, secrets stripped from the bash environment.
    // G1: `open_pull_request` is offered when GitHub is configured.
    tools:
      options.tools ??
      createTurnTools(process.env, {
        pullRequests: createPullRequests(runtime, platforms, pullRequestLinks),
        launcher: runtime.launcher,
      }),
    // M9, G3: runs in spaces with repositories work in their worktrees through the gateway.
    ...withWorkspaces(options.workspaces === undefined ? createRunWorkspace(runtime) : options.workspaces),
    ...(egress === null ? {} : { egress }),
    // E1: the MCP servers' tools of built-in turns, listed at each turn's start.
    ...(mcp === null ? {} : { mcp: { clients: mcp } }),
    rateLimiter,
    directory: runtime.directory,
    // P13: attached files the model is not shown are kept in the run's working folder.
    attachmentShelf: new FolderAttachmentShelf(),
    clock: systemClock,
    waits,
    logger: logger.child({ component: 'engine' }),
    metrics: runtime.metrics,
    relayName: config.relayName ?? null,
    ...(relays === undefined ? {} : { relays }),
    ...(options.activity === undefined ? {} : { activity: options.activity }),
    liveCards: runtime.liveCards,
    ...(options.checks === undefined ? {} : { checks: options.checks }),
    // A12: SUMMON_DEAD_AFTER_MS; a running turn's heartbeat comes well within it.
    timings: {
      ...DEFAULT_TIMINGS,
      deadAfterMs: config.deadAfterMs,
      // P9, P14: SUMMON_SIGN_OF_LIFE_MS; an instant turn posts just its reply.
      signOfLifeMs: config.signOfLifeMs,
      heartbeatMs: Math.min(DEFAULT_TIMINGS.heartbeatMs, Math.floor(config.deadAfterMs / 4)),
      ...options.timings,
    },
    // T4: PGlite runs one transaction at a time; more routing lanes, or longer transactions,
    // would only queue ahead of the front ends' inbox writes (the acks), and its commits are
    // cheap. PostgreSQL routes threads side by side, a burst 16 rows to a commit (32 behind).
    inbox:
      config.databaseUrl === undefined ? { lanes: 1, batch: 1 } : { lanes: 4, batch: 16, catchUpBatch: 32 },
    // T4: acks first — routing lets the front ends' acks go first while the loop is busy.
    loopLoad: new EventLoopLoad(),
  });
}

/** R3: notes from one paired relay to one agent, per 10 minutes (shared through Redis when set). */
function createRelayInbound(
  runtime: Runtime,
  platforms: ReadonlyMap<Platform, ChatPlatform>,
  { queue, redis, waits }: EngineBackends,
): RelayInbound {
  const { config, logger } = runtime;
  return new RelayInbound({
    store: runtime.store,
    platforms,
    queue,
    waits,
    clock: systemClock,
    logger: logger.child({ component: 'relays' }),
    relayName: config.relayName ?? null,
    pairLimiter: relayPairLimiter(redis, config.relayRateLimit),
  });
}

const withWorkspaces = (workspaces: RunWorkspace | null) => (workspaces === null ? {} : { workspaces });
