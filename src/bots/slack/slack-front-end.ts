import type { IncomingMessage, ServerResponse } from 'node:http';
import type { App, HTTPReceiver, SocketModeReceiver, webApi } from '@slack/bolt';
import type { BoundedDownloader } from '../../core/ports/bounded-downloader';
import type { ChatDirectory } from '../../core/ports/chat-directory';
import type { InboxChatEngine } from '../../core/ports/chat-engine';
import type { CommandService } from '../../core/ports/command-service';
import type { Logger } from '../../core/ports/logger';
import type { Outbox, OutboxFactory } from '../../core/ports/outbox';
import { SlackBackfill } from './inbound/slack-backfill';
import { SlackFileFetcher } from './inbound/slack-file-fetcher';
import { SlackInboxDecoder, slackInboxEntry } from './inbound/slack-inbox';
import { registerSlackListeners } from './inbound/slack-listeners';
import { registerSessionStop } from './inbound/slack-session-stop';
import { registerSlashCommand } from './inbound/slack-slash-command';
import { futureTimestampRefusal } from './inbound/slack-timestamp-guard';
import { registerUnknownInteractions } from './inbound/slack-unknown-interactions';
import { joinInFlight } from './outbound/in-flight-reads';
import { slackPermalinks } from './outbound/slack-permalink';
import { slackRunCards } from './outbound/slack-run-card';
import { SlackSender } from './outbound/slack-sender';
import { publishHome, registerAppHome } from './slack-app-home';
import {
  connectSlack,
  type HttpFetchFactory,
  isDeadToken,
  SLACK_EVENTS_PATH,
  type SlackConnection,
  type SlackCredentials,
} from './slack-connection';
import { SlackDirectory } from './slack-directory';
import { SlackGroups } from './slack-groups';
import { SlackPlatform } from './slack-platform';
import type { SlackStreamSettings } from './stream/slack-stream-options';

export type { SlackCredentials };
export { SLACK_EVENTS_PATH };

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
  /** P7: how long a Web API call may go unanswered before the outbox tries it again (30 s; tests set it short). */
  requestTimeoutMs?: number;
  /** T3: how Web API calls are made (`src/app` hands it the lean fetch); absent: the global `fetch`. */
  httpFetch?: HttpFetchFactory;
  /** P14: when a streamed reply goes on in a new message (before Slack's ~5-minute limit), and the append interval. */
  stream?: Partial<SlackStreamSettings>;
}

/**
 * The Slack front end: one Bolt app (HTTP on Summon's server, or Socket Mode), the Slack
 * platform the core posts through, and the sender behind the outbox `src/app` hands it.
 */
export class SlackFrontEnd {
  readonly platform: SlackPlatform;
  /** P24: people's Slack user groups, cached until Slack reports a change. */
  private readonly groups: SlackGroups;
  readonly deliverer: Outbox;
  private started = false;
  private readonly clicks = new Set<Promise<void>>();
  private backfills: Promise<unknown> = Promise.resolve();

  readonly identity: SlackConnection['identity'];
  private readonly app: App;
  private readonly receiver: HTTPReceiver | null;
  private readonly socket: SocketModeReceiver | null;
  private readonly client: webApi.WebClient;
  private readonly historyClient: webApi.WebClient;

  private constructor(
    connection: SlackConnection,
    private readonly options: SlackFrontEndOptions,
  ) {
    ({
      app: this.app,
      receiver: this.receiver,
      socket: this.socket,
      identity: this.identity,
      client: this.client,
      historyClient: this.historyClient,
    } = connection);
    const { client, identity } = connection;
    const directory = new SlackDirectory(options.outgoingDirectory, identity.teamId);
    this.deliverer = options.outbox('slack', new SlackSender(client));
    const ownerOf = joinInFlight((channel) => directory.channelOwner(channel));
    this.groups = new SlackGroups(client, options.logger.child({ component: 'slack' }));
    // P24: the platform's groups port, and P9, T2: a dead run's card read back, beside what SlackPlatform posts.
    this.platform = Object.assign(
      new SlackPlatform({
        deliver: (target, call, args, options) => this.deliverer.deliver(target, call, args, options),
        deliverStored: this.deliverer.deliverStored?.bind(this.deliverer),
        // T3: a busy channel's turns share each lookup of its owner and team under way.
        channelOwner: (channel, nicknames = []) =>
          nicknames.length === 0 ? ownerOf(channel) : directory.channelOwner(channel, nicknames),
        permalink: slackPermalinks(client, options.logger.child({ component: 'slack' })),
        attachments: new SlackFileFetcher(
          options.downloads,
          options.credentials.botToken,
          options.credentials.apiUrl,
        ),
        ...(options.replyPartLimit === undefined ? {} : { replyPartLimit: options.replyPartLimit }),
        teamId: identity.teamId,
        teamOfChannel: joinInFlight((channel) => directory.teamOfChannel(channel)),
        ...(options.stream === undefined ? {} : { stream: options.stream }),
        logger: options.logger,
      }),
      {
        groups: this.groups,
        findRunCard: slackRunCards(this.historyClient, options.logger.child({ component: 'slack' })),
      },
    );
  }

  get mode(): 'http' | 'socket' {
    return this.receiver === null ? 'socket' : 'http';
  }

  /**
   * Checks the bot token with `auth.test`, then builds the app (`connectSlack`); null, after one
   * clear log line, for a token Slack refuses.
   */
  static async connect(options: SlackFrontEndOptions): Promise<SlackFrontEnd | null> {
    const connection = await connectSlack(options);
    return connection === null ? null : new SlackFrontEnd(connection, options);
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
      directory: this.options.directory,
      logger: log,
      botUserId: this.identity.botUserId,
      now: this.options.now ?? (() => new Date()),
      inFlight: this.clicks,
      refreshHome: (teamId, userId, notice) =>
        publishHome(this.client, this.options.directory, { teamId, userId, notice }),
    });
    // P15: Slack's native Stop of an agent session.
    registerSessionStop(this.app, {
      engine,
      platform: this.platform,
      directory: this.options.directory,
      logger: log,
      inFlight: this.clicks,
    });
    registerSlashCommand(this.app, {
      commands: this.options.commands,
      directory: this.options.directory,
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
    // P24: a user group's members or handle changed: read again at its next use.
    this.app.event('subteam_members_changed', async ({ event }) => this.groups.invalidate(event.subteam_id));
    this.app.event('subteam_updated', async ({ event }) => this.groups.invalidate(event.subteam.id ?? ''));
    const resumed = await this.deliverer.resume();
    if (resumed.resent + resumed.abandoned + resumed.pruned > 0) log.info(resumed, 'outbox resumed');
    const now = this.options.now ?? (() => new Date());
    const teams = new SlackDirectory(this.options.directory, this.identity.teamId);
    const backfill = new SlackBackfill({
      client: this.historyClient,
      directory: this.options.directory,
      logger: log,
      now,
      ...this.options.backfill,
      // P6: the same inbox entry as a live event (`{channel}:{ts}`): what was taken in is dropped.
      // A2: under the team of the channel's workspace, as Slack would have sent it.
      deliver: async (event) => {
        const team = event.channel === undefined ? null : await teams.teamOfChannel(event.channel);
        const entry = slackInboxEntry(event, team ?? this.identity.teamId, now());
        if (entry !== null) await engine.ingest(entry);
      },
    });
    // P11: every new Socket Mode connection (the first, and each reconnect) back-fills the gap.
    this.socket?.client.on('connected', () => {
      log.info({}, 'Slack Socket Mode connected');
      // P24: changes during the gap were not told (the back-fill replays messages only).
      this.groups.forget();
      this.queueBackfill(backfill);
    });
    if (this.receiver === null) {
      try {
        await this.app.start();
      } catch (error) {
        const code = (error as { data?: { error?: string } }).data?.error;
        if (!isDeadToken(code)) throw error;
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
    await this.deliverer.stop();
  }
}
