import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createJobQueue } from '../../src/adapters/queue/create-job-queue';
import { FileWorkspaceDirectory } from '../../src/adapters/workspace-directory/file-workspace-directory';
import type { TurnToolKit } from '../../src/core/engine/engine-deps';
import { DEFAULT_TIMINGS } from '../../src/core/engine/engine-timings';
import type { RunJob } from '../../src/core/engine/run-job';
import { TurnEngine } from '../../src/core/engine/turn-engine';
import type { InboundMessage } from '../../src/core/ports/chat-platform';
import { silentLogger } from '../../src/core/ports/logger';
import type { Runner } from '../../src/core/ports/runner';
import type { Store } from '../../src/core/ports/store';
import { InMemoryPairRateLimiter } from '../../src/core/wake/in-memory-pair-rate-limiter';
import { ensureLocalChat, LOCAL_CHANNEL, LOCAL_MEMBER } from '../../src/core/workspace/local-chat';
import type { Database, DatabaseKind } from '../../src/storage/database';
import { openBenchDatabase } from './bench-database';
import { deferObliterate, freshQueueNames } from './bench-queues';
import type { Cleanup } from './cleanup';
import type { RoundTrip } from './drive';
import type { Endpoints } from './endpoints';
import { InstantRunner } from './instant-runner';
import { RecordingPlatform } from './recording-platform';

export interface SetupSpec {
  id: string;
  label: string;
  database: DatabaseKind;
  bullmq: boolean;
}

export const SETUPS: readonly SetupSpec[] = [
  { id: 'postgres-bullmq', label: 'PostgreSQL + BullMQ', database: 'postgres', bullmq: true },
  { id: 'postgres-in-process', label: 'PostgreSQL + in-process queue', database: 'postgres', bullmq: false },
  { id: 'pglite-in-process', label: 'PGlite + in-process queue', database: 'pglite', bullmq: false },
];

/** The agent every message mentions. */
const AGENT = 'engineer';

export interface EngineSetup {
  /** One message, top-level in a new thread; ends when the agent's reply is posted. */
  roundTrip: RoundTrip;
  platform: RecordingPlatform;
  engine: TurnEngine;
  store: Store;
  /** For the benchmarks that look at what the store sends (`StatementCounter`). */
  database: Database;
  workspaceId: string;
  /** Sends `text` top-level in a new thread without waiting for anything. */
  send(text: string): Promise<void>;
}

/** What a benchmark other than `core` changes: the runner and the tools (default: instant, none). */
export interface EngineExtras {
  runner?: Runner;
  tools?: TurnToolKit;
}

/**
 * The real turn engine on a fresh database and queue, the way `startEngine` composes it, with
 * an instant runner and a recording platform. Everything it opens is undone by `cleanup`.
 */
export async function openEngineSetup(
  spec: SetupSpec,
  endpoints: Endpoints,
  options: { workerConcurrency: number; timeoutMs: number },
  cleanup: Cleanup,
  extras: EngineExtras = {},
): Promise<EngineSetup> {
  const database = await openBenchDatabase(spec.database, endpoints.postgresServerUrl, cleanup);
  const store = database.store;
  const local = await store.transaction((tx) => ensureLocalChat(tx));

  const dataDir = await mkdtemp(join(tmpdir(), 'summon-bench-data-'));
  cleanup.defer(`remove ${dataDir}`, () => rm(dataDir, { recursive: true, force: true }));

  const names = freshQueueNames('turns');
  if (spec.bullmq) deferObliterate(cleanup, names, endpoints.redisUrl);
  const queue = createJobQueue<RunJob>({
    name: names.name,
    redisUrl: spec.bullmq ? endpoints.redisUrl : undefined,
    prefix: names.prefix,
    logger: silentLogger,
  });

  const platform = new RecordingPlatform(AGENT, options.timeoutMs);
  const engine = new TurnEngine({
    store,
    platforms: new Map([['terminal', platform]]),
    queue,
    runners: () => extras.runner ?? new InstantRunner(),
    ...(extras.tools === undefined ? {} : { tools: extras.tools }),
    rateLimiter: new InMemoryPairRateLimiter(),
    directory: new FileWorkspaceDirectory(dataDir),
    clock: { now: () => new Date() },
    logger: silentLogger,
    relayName: null,
    timings: DEFAULT_TIMINGS,
  });
  cleanup.defer('close the engine and its queue', () => engine.close());
  await store.warm(); // as startEngine does
  await engine.start({ concurrency: options.workerConcurrency });

  let sent = 0;
  const messageIn = (thread: string, text: string): InboundMessage => ({
    platform: 'terminal',
    eventId: randomUUID(),
    workspace: { slug: local.workspace.slug },
    channelId: LOCAL_CHANNEL,
    thread,
    topLevel: true,
    messageRef: `in-${sent}`,
    senderId: LOCAL_MEMBER,
    text: `@${AGENT} ${text}`,
    receivedAt: new Date(),
  });
  const send = async (text: string) => {
    sent += 1;
    await engine.receive(messageIn(`terminal:${LOCAL_CHANNEL}:${sent}`, text));
  };
  const roundTrip: RoundTrip = async () => {
    sent += 1;
    const thread = `terminal:${LOCAL_CHANNEL}:${sent}`;
    const reply = platform.expectReply(thread);
    reply.catch(() => {}); // awaited below; this only keeps an early failure from going unhandled
    try {
      const outcome = await engine.receive(messageIn(thread, `benchmark message ${sent}`));
      if (outcome.kind !== 'accepted' || outcome.runIds.length !== 1) {
        throw new Error(`${thread}: expected one run, got ${JSON.stringify(outcome)}`);
      }
    } catch (error) {
      platform.abandon(thread, error instanceof Error ? error : new Error(String(error)));
    }
    return reply;
  };
  return { roundTrip, platform, engine, store, database, workspaceId: local.workspace.id, send };
}
