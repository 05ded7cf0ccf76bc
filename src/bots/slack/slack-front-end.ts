import type { IncomingMessage, ServerResponse } from 'node:http';
import { App, HTTPReceiver, SocketModeReceiver, webApi } from '@slack/bolt';
import type { BoundedDownloader } from '../../core/ports/bounded-downloader';
import type { ChatDirectory } from '../../core/ports/chat-directory';
import type { InboxChatEngine } from '../../core/ports/chat-engine';
import type { CommandService } from '../../core/ports/command-service';
import type { Logger } from '../../core/ports/logger';
import type { Outbox, OutboxFactory } from '../../core/ports/outbox';
import { publishHome, registerAppHome } from './slack-app-home';
import { SlackBackfill } from './slack-backfill';
import { boltLogger } from './slack-bolt-logger';
import { SlackDirectory } from './slack-directory';
import { SlackFileFetcher } from './slack-file-fetcher';
import { SlackInboxDecoder, slackInboxEntry } from './slack-inbox';
import { registerSlackListeners } from './slack-listeners';
import { slackPermalinks } from './slack-permalink';
import { SlackPlatform } from './slack-platform';
import { SlackSender } from './slack-sender';
import { registerSessionStop } from './slack-session-stop';
import { registerSlashCommand } from './slack-slash-command';
import type { SlackStreamSettings } from './slack-stream-options';
import { futureTimestampRefusal } from './slack-timestamp-guard';
import { registerUnknownInteractions } from './slack-unknown-interactions';

export const SLACK_EVENTS_PATH = '/slack/events';

export interface SlackCredentials {
  botToken: string;
  /** HTTP mode: Bolt verifies every request's signature with it. */
  signingSecret: string | undefined;
  /** Socket Mode when set (no public URL needed). */
  appToken: string | undefined;
  /** The Web API base URL (tests, Slack-compatible servers). */
  apiUrl: string | undefined;
}

export interface SlackFrontEndOptions {
  credentials: SlackCredentials;
  /** P1, M11, P11, App Home: what the translation looks up (the core's, over the store; `src/app` builds it). */
  directory: ChatDirectory;
  /** P7, T2: what outgoing calls look up (a channel's owner), waiting out a database outage. */
  outgoingDirectory: ChatDirectory;
  /** `/summon`: the core's command service (`src/app` builds it). */
  commands: CommandService;
  /** P7: this platform's outbox around the front end's `SlackSender` (`src/app` builds it). */
  outbox: OutboxFactory;
  /** P13: how attachments are fetched (`src/app` hands it the adapter). */
  downloads: BoundedDownloader;
  logger: Logger;
  now?: () => Date;
  replyPartLimit?: number;
  /** P11: the back-fill's page size and page cap per conversation (tests set them small). */
  backfill?: { pageSize?: number; maxPages?: number };
  /**
   * Socket Mode: how long a ping may go unanswered; the client also waits this long (times the
   * failures in a row) before reconnecting after Slack's `disconnect`. Slack's client's 5 s by
   * default (tests set it short).
   */
  socketPingTimeoutMs?: number;
  /** P14: when a streamed reply goes on in a new message (before Slack's ~5-minute limit), and the append interval. */
  stream?: Partial<SlackStreamSettings>;
}

/** Slack's answers that mean the token itself is no good: retrying cannot help. */
const DEAD_TOKEN = new Set([
  'invalid_auth',
  'not_authed',
  'token_revoked',
  'account_inactive',
  'token_expired',
]);

/**
 * The Slack front end: one Bolt app (HTTP on Summon's server, or Socket Mode), the Slack
 * platform the core posts through, and the sender behind the outbox `src/app` hands it.
 */
export class SlackFrontEnd {
  readonly platform: SlackPlatform;
  readonly deliverer: Outbox;
  private started = false;
  private readonly clicks = new Set<Promise<void>>();
  private backfills: Promise<unknown> = Promise.resolve();

  private constructor(
    private readonly app: App,
    private readonly receiver: HTTPReceiver | null,
    private readonly socket: SocketModeReceiver | null,
    private readonly options: SlackFrontEndOptions,
    readonly identity: { teamId: string; botUserId: string; botId: string },
    private readonly client: webApi.WebClient,
    /** P11: reads history for the back-fill, waiting out 429s (Retry-After) as the outbox does not. */
    private readonly historyClient: webApi.WebClient,
    directory: SlackDirectory,
  ) {
    this.deliverer = options.outbox('slack', new SlackSender(client));
    this.platform = new SlackPlatform({
      deliver: (target, call, args) => this.deliverer.deliver(target, call, args),
      channelOwner: (channel) => directory.channelOwner(channel),
      permalink: slackPermalinks(client, options.logger.child({ component: 'slack' })),
      attachments: new SlackFileFetcher(
        options.downloads,
        options.credentials.botToken,
        options.credentials.apiUrl,
      ),
      ...(options.replyPartLimit === undefined ? {} : { replyPartLimit: options.replyPartLimit }),
      teamId: identity.teamId,
      ...(options.stream === undefined ? {} : { stream: options.stream }),
      logger: options.logger,
    });
  }

  get mode(): 'http' | 'socket' {
    return this.receiver === null ? 'socket' : 'http';
  }

  /**
   * Checks the bot token with `auth.test`, then builds the app. An invalid or revoked token is
   * one clear log line and no front end (null): no retry loop against a dead credential.
   */
  static async connect(options: SlackFrontEndOptions): Promise<SlackFrontEnd | null> {
    const { credentials } = options;
    const log = options.logger.child({ component: 'slack' });
    const logger = boltLogger(log);
    const clientOptions = {
      ...(credentials.apiUrl === undefined ? {} : { slackApiUrl: credentials.apiUrl }),
      // P7: the outbox handles 429s and retries; the client must hand them back at once.
      retryConfig: { retries: 0 },
      rejectRateLimitedCalls: true,
      logger,
    };
    const client = new webApi.WebClient(credentials.botToken, clientOptions);
    let auth: { user_id?: string; bot_id?: string; team_id?: string };
    try {
      auth = await client.auth.test();
    } catch (error) {
      const code = (error as { data?: { error?: string } }).data?.error;
      if (code !== undefined && DEAD_TOKEN.has(code)) {
        log.error(
          { slackError: code },
          `Slack refused SLACK_BOT_TOKEN (${code}): the Slack front end is not started`,
        );
        return null;
      }
      throw error;
    }
    if (auth.user_id === undefined || auth.bot_id === undefined || auth.team_id === undefined) {
      log.error(
        {},
        'SLACK_BOT_TOKEN is not a bot token (auth.test named no bot): the Slack front end is not started',
      );
      return null;
    }
    const identity = { teamId: auth.team_id, botUserId: auth.user_id, botId: auth.bot_id };
    const common = {
      token: credentials.botToken,
      botId: identity.botId,
      botUserId: identity.botUserId,
      clientOptions,
      logger,
      // T4: no conversation store: Summon keeps none in Bolt, and its default rejects with a new
      // Error (a stack trace) on every event that names a channel.
      convoStore: false as const,
    };
    let app: App;
    let receiver: HTTPReceiver | null = null;
    let socket: SocketModeReceiver | null = null;
    if (credentials.appToken !== undefined) {
      // Built here rather than by Bolt, so its client's `connected` (each new connection) is ours (P11).
      socket = new SocketModeReceiver({
        appToken: credentials.appToken,
        logger,
        ...(options.socketPingTimeoutMs === undefined
          ? {}
          : { clientPingTimeout: options.socketPingTimeoutMs }),
        installerOptions: { clientOptions },
      });
      app = new App({ ...common, receiver: socket, socketMode: true });
    } else {
      if (credentials.signingSecret === undefined) {
        throw new Error(
          'SLACK_SIGNING_SECRET is required for Slack over HTTP (or set SLACK_APP_TOKEN for Socket Mode).',
        );
      }
      receiver = new HTTPReceiver({
        signingSecret: credentials.signingSecret,
        endpoints: SLACK_EVENTS_PATH,
        // T4: the ack waits for the event to be stored (one write): a failure answers 500 and
        // Slack retries (P6); routing follows from the inbox.
        processBeforeResponse: true,
        logger,
      });
      app = new App({ ...common, receiver });
    }
    const historyClient = new webApi.WebClient(credentials.botToken, {
      ...clientOptions,
      // P11: the WebClient sleeps for Slack's Retry-After on a 429 and tries again.
      retryConfig: webApi.retryPolicies.fiveRetriesInFiveMinutes,
      rejectRateLimitedCalls: false,
    });
    return new SlackFrontEnd(
      app,
      receiver,
      socket,
      options,
      identity,
      client,
      historyClient,
      new SlackDirectory(options.outgoingDirectory, identity.teamId),
    );
  }

  /**
   * Listens for events and clicks, sends what the outbox still holds, and opens Socket Mode.
   * False when Slack refused the app token: one log line, and this connection stays closed.
   */
  async start(engine: InboxChatEngine): Promise<boolean> {
    const log = this.options.logger.child({ component: 'slack' });
    // T4: this front end's stored events are read back and routed by the engine's inbox.
    engine.routeInboxWith(
      'slack',
      new SlackInboxDecoder({ botUserId: this.identity.botUserId, logger: log }),
    );
    registerSlackListeners(this.app, {
      engine,
      platform: this.platform,
      logger: log,
      botUserId: this.identity.botUserId,
      now: this.options.now ?? (() => new Date()),
      inFlight: this.clicks,
      refreshHome: (teamId, userId, notice) =>
        publishHome(this.client, this.options.directory, { teamId, userId, notice }),
    });
    // P15: Slack's native Stop of an agent session.
    registerSessionStop(this.app, { engine, platform: this.platform, logger: log, inFlight: this.clicks });
    registerSlashCommand(this.app, {
      commands: this.options.commands,
      logger: log,
      now: this.options.now ?? (() => new Date()),
    });
    // P17: after every listener above, for what none of them answers.
    registerUnknownInteractions(this.app, {
      platform: this.platform,
      logger: log,
      commands: ['/summon'],
      inFlight: this.clicks,
    });
    registerAppHome(this.app, { directory: this.options.directory, logger: log });
    const resumed = await this.deliverer.resume();
    if (resumed.resent + resumed.abandoned + resumed.pruned > 0) log.info(resumed, 'outbox resumed');
    const now = this.options.now ?? (() => new Date());
    const backfill = new SlackBackfill({
      client: this.historyClient,
      directory: this.options.directory,
      logger: log,
      now,
      ...this.options.backfill,
      // P6: the same inbox entry as a live event (`{channel}:{ts}`): what was taken in is dropped.
      deliver: async (event) => {
        const entry = slackInboxEntry(event, this.identity.teamId, now());
        if (entry !== null) await engine.ingest(entry);
      },
    });
    // P11: every new Socket Mode connection (the first, and each reconnect) back-fills the gap.
    this.socket?.client.on('connected', () => {
      log.info({}, 'Slack Socket Mode connected');
      this.queueBackfill(backfill);
    });
    if (this.receiver === null) {
      try {
        await this.app.start();
      } catch (error) {
        const code = (error as { data?: { error?: string } }).data?.error;
        if (code === undefined || !DEAD_TOKEN.has(code)) throw error;
        log.error(
          { slackError: code },
          `Slack refused SLACK_APP_TOKEN (${code}): Socket Mode is not started`,
        );
        await this.app.stop().catch(() => undefined);
        return false;
      }
    }
    this.started = true;
    // P11: over HTTP there is no connection to come back: back-fill once, after start.
    if (this.socket === null) this.queueBackfill(backfill);
    log.info({ mode: this.mode, team: this.identity.teamId }, 'Slack front end started');
    return true;
  }

  /** Resolves once every back-fill started so far is done. */
  async idle(): Promise<void> {
    await this.backfills;
  }

  private queueBackfill(backfill: SlackBackfill): void {
    this.backfills = this.backfills
      .then(() => backfill.run())
      .catch((error: unknown) =>
        this.options.logger.error({ component: 'slack', err: String(error) }, 'Slack back-fill failed'),
      );
  }

  /** HTTP mode: `POST /slack/events` of Summon's server. False when the request is not Slack's. */
  handleHttp(request: IncomingMessage, response: ServerResponse): boolean {
    if (this.receiver === null || !this.started) return false;
    const path = (request.url ?? '').split('?')[0];
    if (path !== SLACK_EVENTS_PATH) return false;
    const now = (this.options.now ?? (() => new Date()))().getTime();
    const refusal = futureTimestampRefusal(request.headers['x-slack-request-timestamp'], now);
    if (refusal !== null) {
      this.options.logger.warn({ component: 'slack', reason: refusal }, 'Slack request refused');
      response.writeHead(401);
      response.end();
      return true;
    }
    this.receiver.requestListener(request, response);
    return true;
  }

  async close(): Promise<void> {
    if (this.receiver === null && this.started) await this.app.stop();
    await this.backfills;
    await Promise.all([...this.clicks]);
    await this.deliverer.drain();
  }
}
