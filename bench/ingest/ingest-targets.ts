import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, HTTPReceiver, LogLevel } from '@slack/bolt';
import { Pool } from 'pg';
import { EventLoopLoad } from '../../src/adapters/process/event-loop-load';
import { createJobQueue } from '../../src/adapters/queue/create-job-queue';
import { FileWorkspaceDirectory } from '../../src/adapters/workspace-directory/file-workspace-directory';
import { frontEndServices } from '../../src/app/front-end-services';
import { SLACK_EVENTS_PATH, SlackFrontEnd } from '../../src/bots/slack/slack-front-end';
import { DEFAULT_TIMINGS } from '../../src/core/engine/engine-timings';
import type { RunJob } from '../../src/core/engine/run-job';
import { TurnEngine } from '../../src/core/engine/turn-engine';
import { silentLogger } from '../../src/core/ports/logger';
import type { Store } from '../../src/core/ports/store';
import { InMemoryPairRateLimiter } from '../../src/core/wake/in-memory-pair-rate-limiter';
import { ensureLocalChat } from '../../src/core/workspace/local-chat';
import type { DatabaseKind } from '../../src/storage/database';
import { createPostgresDatabase, databaseUrlFor, dropPostgresDatabase } from '../../src/storage/server-admin';
import { SlackWebApiStandIn } from '../../test/support/stand-ins/slack-web-api-stand-in';
import { openBenchDatabase, randomBenchDatabaseName } from '../core/bench-database';
import { deferObliterate, freshQueueNames } from '../core/bench-queues';
import type { Cleanup } from '../core/cleanup';
import type { Endpoints } from '../core/endpoints';
import { InstantRunner } from '../core/instant-runner';

export const SIGNING_SECRET = 'bench-signing-secret-0123456789abcdef';
export const TEAM = 'T0BENCH001';
export const CHANNEL = 'C0BENCH001';
export const PERSON = 'U0BENCHDANA';
const BOT_USER = 'U0BENCHBOT';

/** A server under load: where to send deliveries, and when what it took in has been routed. */
export interface IngestTarget {
  url: string;
  /** The server's process when it is not this one (`summon serve` in a child): its CPU is read there. */
  pid?: number;
  /**
   * Resolves with the events still unrouted once all are routed (0) or `timeoutMs` passed (at
   * once, 0, for a server that routes before its ack).
   */
  drained(timeoutMs: number): Promise<number>;
  /**
   * Gathers its PostgreSQL tables' statistics after the warm-up, as autovacuum does on a running
   * server within a minute of a fresh database's first writes; absent: no PostgreSQL database.
   */
  analyze?: () => Promise<void>;
}

async function listen(listener: RequestListener, cleanup: Cleanup): Promise<string> {
  const server: Server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanup.defer('close the HTTP server', async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}${SLACK_EVENTS_PATH}`;
}

/** The baseline: a bare Bolt app on the same HTTP receiver settings, acking every message event. */
export function openBareBolt(cleanup: Cleanup): Promise<IngestTarget> {
  return openBolt(async () => {}, cleanup);
}

/** A bare Bolt app on Summon's HTTP receiver settings, acking each message once `listener` is done. */
async function openBolt(
  listener: (body: { event_id: string }) => Promise<void>,
  cleanup: Cleanup,
): Promise<IngestTarget> {
  const receiver = new HTTPReceiver({
    signingSecret: SIGNING_SECRET,
    endpoints: SLACK_EVENTS_PATH,
    processBeforeResponse: true,
    logLevel: LogLevel.ERROR,
  });
  const app = new App({
    token: 'xoxb-bench',
    botId: 'B0BENCH001',
    botUserId: BOT_USER,
    receiver,
    tokenVerificationEnabled: false,
    logLevel: LogLevel.ERROR,
  });
  app.event('message', ({ body }) => listener(body as { event_id: string }));
  const url = await listen(receiver.requestListener, cleanup);
  return { url, drained: async () => 0 };
}

/**
 * The floor of any ack after a durable write (T4): the same bare Bolt app, whose listener
 * stores each event with one autocommitted INSERT (its id and body, keyed by the id: ON
 * CONFLICT DO NOTHING) on the same PostgreSQL server, through two connections as Summon's
 * inbox has, before it acks. No routing, no engine: what the server's commit (its WAL flush on
 * this machine's disk) adds to an ack, measured in the same run.
 */
export async function openDurableBolt(endpoints: Endpoints, cleanup: Cleanup): Promise<IngestTarget> {
  const name = randomBenchDatabaseName();
  await createPostgresDatabase(endpoints.postgresServerUrl, name);
  cleanup.defer(`drop database ${name}`, () => dropPostgresDatabase(endpoints.postgresServerUrl, name));
  const pool = new Pool({
    connectionString: databaseUrlFor(endpoints.postgresServerUrl, name),
    max: 2,
    min: 2,
  });
  cleanup.defer('close the durable baseline’s connections', () => pool.end());
  await pool.query('CREATE TABLE events (event_id text PRIMARY KEY, body jsonb NOT NULL)');
  const target = await openBolt(async (body) => {
    await pool.query('INSERT INTO events (event_id, body) VALUES ($1, $2) ON CONFLICT DO NOTHING', [
      body.event_id,
      JSON.stringify(body),
    ]);
  }, cleanup);
  return {
    ...target,
    analyze: async () => {
      await pool.query('ANALYZE');
    },
  };
}

/** Rows still to route; 0 on a schema without an inbox (the code path that routes before its ack). */
async function pendingRows(store: Store): Promise<number> {
  return store.transaction(async (tx) => (tx.inbox === undefined ? 0 : tx.inbox.countPending()));
}

/**
 * Summon as production composes it for Slack over HTTP: the real `SlackFrontEnd` (Bolt's HTTP
 * receiver, signature check) and `TurnEngine` on a fresh database, the team and channel bound
 * to a shared (not dedicated) space, so a plain message is stored and starts nothing (P3).
 */
export async function openSummon(
  spec: {
    database: DatabaseKind;
    bullmq: boolean;
    inboxLanes: number | undefined;
    inboxBatch?: number | undefined;
    acksFirstMs?: number | undefined;
  },
  endpoints: Endpoints,
  cleanup: Cleanup,
): Promise<IngestTarget> {
  const standIn = new SlackWebApiStandIn({ botUserId: BOT_USER, teamId: TEAM });
  const apiUrl = await standIn.listen();
  cleanup.defer('close the Slack stand-in', () => standIn.close());
  const database = await openBenchDatabase(spec.database, endpoints.postgresServerUrl, cleanup);
  const store = database.store;
  await store.transaction(async (tx) => {
    const chat = await ensureLocalChat(tx);
    await tx.spaces.update(chat.space.id, { dedicated: false });
    await tx.platformBindings.bind(chat.workspace.id, 'slack', TEAM);
    await tx.channelBindings.bind(chat.space.id, 'slack', CHANNEL);
    await tx.members.insert(chat.workspace.id, {
      nickname: 'dana',
      role: 'owner',
      slackUserId: PERSON,
      discordUserId: null,
    });
  });
  const dataDir = await mkdtemp(join(tmpdir(), 'summon-bench-data-'));
  cleanup.defer(`remove ${dataDir}`, () => rm(dataDir, { recursive: true, force: true }));
  const front = await SlackFrontEnd.connect({
    credentials: { botToken: standIn.token, signingSecret: SIGNING_SECRET, appToken: undefined, apiUrl },
    ...frontEndServices({ store, logger: silentLogger }),
    logger: silentLogger,
  });
  if (front === null) throw new Error('the Slack front end did not connect to the stand-in');
  const names = freshQueueNames('ingest');
  if (spec.bullmq) deferObliterate(cleanup, names, endpoints.redisUrl);
  const engine = new TurnEngine({
    store,
    platforms: new Map([['slack', front.platform]]),
    queue: createJobQueue<RunJob>({
      name: names.name,
      redisUrl: spec.bullmq ? endpoints.redisUrl : undefined,
      prefix: names.prefix,
      logger: silentLogger,
    }),
    runners: () => new InstantRunner(),
    rateLimiter: new InMemoryPairRateLimiter(),
    directory: new FileWorkspaceDirectory(dataDir),
    clock: { now: () => new Date() },
    logger: silentLogger,
    relayName: null,
    timings: DEFAULT_TIMINGS,
    // As `startEngine` sets them for the database (engine-runtime.ts), unless a flag says otherwise.
    inbox: {
      lanes: spec.inboxLanes ?? (spec.database === 'pglite' ? 1 : 4),
      batch: spec.inboxBatch ?? (spec.database === 'pglite' ? 1 : 16),
      ...(spec.acksFirstMs === undefined ? {} : { acksFirstMs: spec.acksFirstMs }),
    },
    loopLoad: new EventLoopLoad(),
  });
  cleanup.defer('close the engine', () => engine.close());
  await store.warm(); // as startEngine does
  await engine.start({ concurrency: 4 });
  cleanup.defer('close the Slack front end', () => front.close());
  if (!(await front.start(engine))) throw new Error('the Slack front end did not start');
  const url = await listen((request, response) => {
    if (front.handleHttp(request, response)) return;
    response.writeHead(404);
    response.end();
  }, cleanup);
  return {
    url,
    drained: async (timeoutMs) => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const pending = await pendingRows(store);
        if (pending === 0 || Date.now() > deadline) return pending;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
  };
}
