import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FolderAttachmentShelf } from '../../src/adapters/attachments/folder-attachment-shelf';
import { createJobQueue } from '../../src/adapters/queue/create-job-queue';
import { FileWorkspaceDirectory } from '../../src/adapters/workspace-directory/file-workspace-directory';
import { frontEndServices } from '../../src/app/front-end-services';
import { SlackFrontEnd } from '../../src/bots/slack/slack-front-end';
import type { SlackStreamSettings } from '../../src/bots/slack/stream/slack-stream-options';
import { RunActivityBoard } from '../../src/core/agents/run-activity-board';
import type { AttachmentLimits } from '../../src/core/attachments/attachment-limits';
import type { TurnToolKit } from '../../src/core/engine/engine-deps';
import { DEFAULT_TIMINGS, type EngineTimings } from '../../src/core/engine/engine-timings';
import type { RunJob } from '../../src/core/engine/run-job';
import { TurnEngine } from '../../src/core/engine/turn-engine';
import { withDirectInbox } from '../../src/core/ingest/direct-inbox';
import type { InboxRouterOptions } from '../../src/core/ingest/inbox-router';
import { tellInThread } from '../../src/core/ingest/tell-in-thread';
import type { MemberRole } from '../../src/core/model/member';
import type { OutboxBackoff } from '../../src/core/outbox/outbox-deliverer';
import type { InboxChatEngine } from '../../src/core/ports/chat-engine';
import { type Logger, silentLogger } from '../../src/core/ports/logger';
import type { Runner } from '../../src/core/ports/runner';
import type { Store, StoreTx } from '../../src/core/ports/store';
import { InMemoryPairRateLimiter } from '../../src/core/wake/in-memory-pair-rate-limiter';
import { ensureLocalChat } from '../../src/core/workspace/local-chat';
import type { DatabaseKind } from '../../src/storage/database';
import { RecordingChatEngine } from './platform-contract';
import { BOT_USER, CHANNEL, type DeliveryOptions, deliver, SIGNING_SECRET, TEAM } from './slack-delivery';
import { SlackSocketModeStandIn } from './stand-ins/slack-socket-mode-stand-in';
import { type SlackStandInOptions, SlackWebApiStandIn } from './stand-ins/slack-web-api-stand-in';
import { makeTempDir } from './temp-dir';
import { openTestDatabase } from './test-database';

/** People of the test team: Slack user id → member nickname and role. */
export const PEOPLE = {
  dana: { userId: 'U0DANA0001', role: 'owner' },
  mia: { userId: 'U0MIA00001', role: 'member' },
  vic: { userId: 'U0VIC00001', role: 'viewer' },
} as const satisfies Record<string, { userId: string; role: MemberRole }>;
export const STRANGER = 'U0STRANGER';

export interface SlackHarnessOptions {
  /** A scripted runner drives the real engine; without one, a RecordingChatEngine stands in. */
  runner?: Runner;
  database?: DatabaseKind;
  standIn?: SlackStandInOptions;
  replyPartLimit?: number;
  timings?: Partial<EngineTimings>;
  logger?: Logger;
  /** Socket Mode (SLACK_APP_TOKEN) against the local websocket stand-in instead of HTTP. */
  socketMode?: boolean;
  /** The app token Summon is given (default: the one the stand-in accepts). */
  appToken?: string;
  /** A9: each run's tools (e.g. `createTurnTools`); absent, turns get none. */
  tools?: TurnToolKit;
  /** T4: the engine's inbox routing (`lanes: 0`: events are stored and acknowledged, never routed). */
  inbox?: Partial<InboxRouterOptions>;
  /** P11: the back-fill's page size and cap (small, so pagination is exercised). */
  backfill?: { pageSize?: number; maxPages?: number };
  /** P13: the bounds of attachments (small, so the caps are exercised). */
  attachmentLimits?: AttachmentLimits;
  /** T2 outage tests: a PostgreSQL server of the test's own, to restart. */
  postgresServerUrl?: string;
  /** P14: when a streamed reply goes on in a new message, and the append interval. */
  stream?: Partial<SlackStreamSettings>;
  /**
   * T5, A13: the engine's queue on BullMQ (Redis, under `prefix`) instead of in-process, so
   * that an engine of the test's own (another worker) takes the turns; `queueName` names it.
   */
  queue?: { redisUrl: string; prefix: string };
  /** T5: false for a `web` role: the engine routes the inbox and runs no turn. */
  runTurns?: boolean;
  /**
   * T2: the store the front end's services (lookups, outbox) are built over, in place of the
   * real one (an `OutageSwitch`'s, to take the database away from them); the engine keeps the real one.
   */
  frontEndStore?: (store: Store) => Store;
  /** T2: the store the engine (the ingest, routing, turns) is built over, in place of the real one. */
  engineStore?: (store: Store) => Store;
  /** P7: the outbox's backoff (short in tests) and when it gives up. */
  outboxBackoff?: Partial<OutboxBackoff>;
  /** P7: how long a Web API call may go unanswered (Summon's 30 s unless set). */
  requestTimeoutMs?: number;
}

export const APP_TOKEN = 'xapp-1-A0APP00001-test';

/**
 * The Slack front end as production runs it (the real Bolt app over HTTP, the outbox, the real
 * engine on a real database when a runner is given), against the local Slack Web API stand-in.
 * The team is bound to the workspace, the channel to space `general`, and dana (owner), mia
 * (member) and vic (viewer) have linked Slack accounts.
 */
/**
 * Socket Mode's ping timeout in tests, which is also the client's wait before a reconnect: short,
 * but long enough that a busy machine's pauses do not pass for a dead connection.
 */
const SOCKET_PING_TIMEOUT_MS = 2000;

export async function openSlackHarness(options: SlackHarnessOptions = {}) {
  let socket: SlackSocketModeStandIn | null = null;
  const standIn = new SlackWebApiStandIn({
    botUserId: BOT_USER,
    teamId: TEAM,
    appToken: APP_TOKEN,
    socketUrl: () => socket?.nextUrl() ?? 'ws://127.0.0.1:1/',
    ...options.standIn,
  });
  const apiUrl = await standIn.listen();
  if (options.socketMode) socket = new SlackSocketModeStandIn(standIn.httpServer);
  const db = await openTestDatabase(
    options.database ?? 'postgres',
    options.postgresServerUrl === undefined ? {} : { serverUrl: options.postgresServerUrl },
  );
  const store = db.database.store;
  const dataDir = await makeTempDir();
  const directory = new FileWorkspaceDirectory(dataDir.path);
  const local = await store.transaction(async (tx) => {
    const chat = await ensureLocalChat(tx);
    await tx.platformBindings.bind(chat.workspace.id, 'slack', TEAM);
    await tx.channelBindings.bind(chat.space.id, 'slack', CHANNEL);
    for (const [nickname, person] of Object.entries(PEOPLE)) {
      await tx.members.insert(chat.workspace.id, {
        nickname,
        role: person.role,
        slackUserId: person.userId,
        discordUserId: null,
      });
    }
    return chat;
  });
  const logger = options.logger ?? silentLogger;
  const queueName = `slack-turns-${randomUUID().slice(0, 8)}`;
  const recording = new RecordingChatEngine();
  // A13: as production wires it, the engine reports run events where App Home reads presence.
  const activity = new RunActivityBoard();
  let inbox = options.inbox;
  const engineStore = options.engineStore?.(store) ?? store;

  const build = async () => {
    const front = await SlackFrontEnd.connect({
      credentials: {
        botToken: standIn.token,
        signingSecret: options.socketMode ? undefined : SIGNING_SECRET,
        appToken: options.socketMode ? (options.appToken ?? APP_TOKEN) : undefined,
        apiUrl,
      },
      ...frontEndServices({
        store: options.frontEndStore?.(store) ?? store,
        logger,
        outboxBackoff: { baseMs: 20, maxMs: 200, ...options.outboxBackoff },
        activity: (runId) => activity.activityOf(runId),
      }),
      logger,
      ...(options.replyPartLimit === undefined ? {} : { replyPartLimit: options.replyPartLimit }),
      ...(options.backfill === undefined ? {} : { backfill: options.backfill }),
      // A reconnect after the stand-in's `disconnect` waits this long, not Slack's client's 5 s.
      ...(options.socketMode ? { socketPingTimeoutMs: SOCKET_PING_TIMEOUT_MS } : {}),
      // P14: streams start with their first words unless a test holds them (`startAfterMs`).
      stream: { intervalMs: 20, startAfterMs: 0, ...options.stream },
      ...(options.requestTimeoutMs === undefined ? {} : { requestTimeoutMs: options.requestTimeoutMs }),
    });
    if (front === null) throw new Error('the Slack front end did not connect');
    let engine: TurnEngine | null = null;
    if (options.runner !== undefined) {
      const runner = options.runner;
      engine = new TurnEngine({
        store: engineStore,
        platforms: new Map([['slack', front.platform]]),
        queue: createJobQueue<RunJob>({
          name: queueName,
          redisUrl: options.queue?.redisUrl,
          ...(options.queue === undefined ? {} : { prefix: options.queue.prefix }),
          closeTimeoutMs: 2000,
        }),
        runners: () => runner,
        rateLimiter: new InMemoryPairRateLimiter(),
        directory,
        activity,
        ...(options.tools === undefined ? {} : { tools: options.tools }),
        clock: { now: () => new Date() },
        logger,
        relayName: null,
        timings: { ...DEFAULT_TIMINGS, statusEditIntervalMs: 20, ...options.timings },
        ...(inbox === undefined ? {} : { inbox }),
        // P13: as production wires it, files the model is not shown are kept in the working folder.
        attachmentShelf: new FolderAttachmentShelf(),
        ...(options.attachmentLimits === undefined ? {} : { attachmentLimits: options.attachmentLimits }),
      });
      await engine.start({ concurrency: 4, ...(options.runTurns === false ? { runTurns: false } : {}) });
    }
    // T4: the recording engine has no inbox: each event is decoded and received at once.
    const chatEngine: InboxChatEngine =
      engine ??
      withDirectInbox(recording, { store, tell: tellInThread(new Map([['slack', front.platform]]), logger) });
    if (!(await front.start(chatEngine))) {
      await engine?.close();
      throw new Error('the Slack front end did not start (Slack refused the app token)');
    }
    return { front, engine };
  };

  let current = await build();
  const server: Server = createServer((request, response) => {
    if (current.front.handleHttp(request, response)) return;
    response.writeHead(404);
    response.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/slack/events`;

  const stop = async () => {
    await current.engine?.close();
    await current.front.close();
  };

  return {
    standIn,
    socket,
    /**
     * The database's URL, for another process on it. Read only when asked: reading it keeps the
     * database from being reset for the file's next test (`test-database.ts`).
     */
    get databaseUrl() {
      return db.databaseUrl;
    },
    queueName,
    store,
    local,
    recording,
    url,
    get front() {
      return current.front;
    },
    get engine() {
      return current.engine;
    },
    deliver: (payload: Record<string, unknown>, delivery: DeliveryOptions = {}) =>
      deliver(url, payload, delivery),
    /** The folder an agent's turns work in (its bash runs there). */
    agentDir: (name: string) => directory.agentDir(local.workspace.slug, name),
    read: <T>(work: (tx: StoreTx) => Promise<T>) => store.inWorkspace(local.workspace.id, work),
    /**
     * A new front end and engine on the same database and Slack, as a restarted process has
     * (T4: with `inbox`, the new engine's inbox routing; default: as the harness was opened).
     */
    restart: async (next: { inbox?: Partial<InboxRouterOptions> } = {}) => {
      inbox = next.inbox ?? options.inbox;
      await stop();
      current = await build();
    },
    runs: () => store.transaction((tx) => tx.runs.listByStatus(['queued', 'running', 'succeeded', 'failed'])),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await stop();
      // Let the Socket Mode client finish its close handshake, so it leaves no timer behind.
      const deadline = Date.now() + 2000;
      while (socket?.connected && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 20));
      await socket?.close();
      await standIn.close();
      await db.dispose();
      await dataDir.remove();
    },
  };
}

export type SlackHarness = Awaited<ReturnType<typeof openSlackHarness>>;
