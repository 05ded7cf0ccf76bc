import { type Client, DiscordjsError, DiscordjsErrorCodes, Events, REST, Routes } from 'discord.js';
import type { BoundedDownloader } from '../../core/ports/bounded-downloader';
import type { ChatDirectory } from '../../core/ports/chat-directory';
import type { InboxChatEngine } from '../../core/ports/chat-engine';
import type { CommandService } from '../../core/ports/command-service';
import type { Logger } from '../../core/ports/logger';
import type { Outbox, OutboxFactory } from '../../core/ports/outbox';
import { createDiscordClient } from './discord-client';
import { type DiscordDirectory, discordDirectory } from './discord-directory';
import { loggable } from './discord-errors';
import { DiscordGroups } from './discord-groups';
import { DiscordPlatform } from './discord-platform';
import { registerGuildCommands } from './inbound/ask-command';
import { DiscordAttachmentFetcher } from './inbound/discord-attachments';
import { DiscordBackfill, messagesAfter } from './inbound/discord-backfill';
import { DiscordInboxDecoder } from './inbound/discord-inbox';
import { DiscordInteractions } from './inbound/discord-interactions';
import { DiscordMessages } from './inbound/discord-messages';
import { discordRunCards } from './outbound/discord-run-card';
import { DiscordSender } from './outbound/discord-sender';
import { DiscordWebhooks } from './outbound/discord-webhooks';

export interface DiscordFrontEndOptions {
  /** P1, M11, P11: what the translation looks up (the core's, over the store; `src/app` builds it). */
  directory: ChatDirectory;
  /** P7, T2: what outgoing calls look up (a guild's members and workspace), waiting out a database outage. */
  outgoingDirectory: ChatDirectory;
  /** `/summon`: the core's command service (`src/app` builds it). */
  commands: CommandService;
  /** P7: this platform's outbox around the front end's `DiscordSender` (`src/app` builds it). */
  outbox: OutboxFactory;
  /** P13: how attachments are fetched (`src/app` hands it the adapter). */
  downloads: BoundedDownloader;
  logger: Logger;
  /** `DISCORD_API_URL`: the REST base; the gateway URL then comes from `GET /gateway/bot`. */
  apiUrl?: string | undefined;
  /** P24: a workspace's `access` names a Discord role: ask for the Server Members intent. */
  memberIntent?: boolean;
  now?: () => Date;
  /** `/summon` answers slower than this are deferred first (Discord's 3 seconds); default 2 s. */
  commandDeferAfterMs?: number;
  /** P14: a streamed reply is edited at most once per this many ms; default 1,000. */
  streamEditIntervalMs?: number;
  /** T2: the waits before messages a database outage refused are read back (`GAP_RETRY_MS`). */
  gapRetry?: { firstMs: number; maxMs: number };
}

/**
 * The Discord front end: the discord.js client, the platform the core posts through, and the
 * handlers that turn gateway events into `ChatEngine` calls. Build it first (the engine needs
 * its `platform`), then `start` it with the engine.
 */
export class DiscordFrontEnd {
  readonly client: Client;
  readonly platform: DiscordPlatform;
  readonly webhooks: DiscordWebhooks;
  /** P7: every post, edit and direct message is stored, then sent (Retry-After, backoff, never twice). */
  readonly deliverer: Outbox;
  /** The outbox's own REST client: no retries, every rate limit handed back (discord.js would wait in memory). */
  private readonly senderRest: REST;
  private resumed = false;
  private readonly logger: Logger;
  private readonly directory: DiscordDirectory;
  /** P24: people's server roles, for access by group. */
  private readonly groups: DiscordGroups;
  private backfills: Promise<unknown> = Promise.resolve();
  private messages: DiscordMessages | null = null;
  /** A REST-only (worker) process's application id, read once: it has no gateway session to learn it. */
  private restApplicationId: string | null = null;

  constructor(private readonly options: DiscordFrontEndOptions) {
    this.logger = options.logger.child({ component: 'discord' });
    this.client = createDiscordClient({ apiUrl: options.apiUrl, members: options.memberIntent === true });
    this.groups = new DiscordGroups(this.client, this.logger);
    this.directory = discordDirectory(options.directory);
    this.webhooks = new DiscordWebhooks(
      this.client.rest,
      () => this.client.application?.id ?? this.restApplicationId ?? '',
    );
    this.senderRest = new REST({
      retries: 0,
      rejectOnRateLimit: () => true,
      ...(options.apiUrl === undefined ? {} : { api: options.apiUrl }),
    });
    this.deliverer = options.outbox(
      'discord',
      new DiscordSender(this.senderRest, this.webhooks, this.logger),
    );
    // P9, T2: a dead run's card read back, beside what DiscordPlatform posts.
    this.platform = Object.assign(
      new DiscordPlatform({
        rest: this.client.rest,
        deliver: (target, kind, payload) => this.deliverer.deliver(target, kind, payload),
        directory: discordDirectory(options.outgoingDirectory),
        logger: this.logger,
        ...(options.streamEditIntervalMs === undefined
          ? {}
          : { streamEditIntervalMs: options.streamEditIntervalMs }),
        attachments: new DiscordAttachmentFetcher(options.downloads, options.apiUrl),
        groups: this.groups,
      }),
      { findRunCard: discordRunCards(this.client.rest, this.logger) },
    );
  }

  /**
   * Connects. An invalid token is logged once and this connection stops (no retry loop);
   * resolves false then, true once connected.
   */
  async start(engine: InboxChatEngine, token: string): Promise<boolean> {
    const { client, logger } = this;
    // T4: messages are stored once as they arrive; the engine's inbox routes them.
    const decoder = new DiscordInboxDecoder({
      client,
      platform: this.platform,
      logger,
      botUserId: () => client.user?.id ?? null,
      guildIds: () => [...client.guilds.cache.keys()],
    });
    engine.routeInboxWith('discord', decoder);
    const messages = new DiscordMessages({
      engine,
      webhooks: this.webhooks,
      logger,
      botUserId: () => client.user?.id ?? null,
      applicationId: () => client.application?.id ?? null,
      now: this.options.now ?? (() => new Date()),
      history: (channelId, after) => messagesAfter(client, channelId, after),
      ...(this.options.gapRetry === undefined ? {} : { gapRetry: this.options.gapRetry }),
    });
    const interactions = new DiscordInteractions({
      engine,
      platform: this.platform,
      directory: this.directory,
      logger,
      summon: {
        commands: this.options.commands,
        logger,
        now: this.options.now ?? (() => new Date()),
        ...(this.options.commandDeferAfterMs === undefined
          ? {}
          : { deferAfterMs: this.options.commandDeferAfterMs }),
      },
    });
    const backfill = new DiscordBackfill({
      client,
      cursors: this.options.directory,
      directory: this.directory,
      messages,
      logger,
      now: this.options.now ?? (() => new Date()),
    });
    this.messages = messages;
    client.on(Events.MessageCreate, (message) => void messages.handle(message));
    client.on(Events.InteractionCreate, (interaction) => void interactions.handle(interaction));
    // P24: a new session (READY, before its GUILD_CREATEs) starts the member cache afresh.
    client.on(Events.Raw, (packet: { t?: string | null }) => {
      if (packet.t === 'READY') this.groups.forgetMembers();
    });
    // P11: every fresh session (first READY, or after Discord refused a resume) back-fills.
    client.on(Events.ShardReady, (shardId) => {
      logger.info({ shardId }, 'Discord session ready');
      this.backfills = this.backfills.then(() => this.afterReady(backfill));
    });
    client.on(Events.ShardResume, (shardId, replayed) =>
      logger.info({ shardId, replayed }, 'Discord session resumed'),
    );
    client.on(Events.ShardDisconnect, (event, shardId) =>
      logger.error(
        { shardId, code: event.code },
        'Discord closed the connection for good; it is not retried',
      ),
    );
    client.on(Events.Error, (error) => logger.error({ err: loggable(error) }, 'Discord client error'));
    this.senderRest.setToken(token);
    try {
      await client.login(token);
      return true;
    } catch (error) {
      if (error instanceof DiscordjsError && error.code === DiscordjsErrorCodes.TokenInvalid) {
        logger.error({}, 'Discord refused DISCORD_TOKEN (invalid token); the Discord front end is stopped');
      } else {
        logger.error({ err: loggable(error) }, 'Discord connection failed; the Discord front end is stopped');
      }
      await client.destroy();
      return false;
    }
  }

  /**
   * A worker process's Discord: posts, edits and webhooks over REST, no gateway session and no
   * listener (exactly one process, the `web` or `all` one, holds the session). False when
   * Discord refused the token (one log line).
   */
  async startPosting(token: string): Promise<boolean> {
    this.client.rest.setToken(token);
    this.senderRest.setToken(token);
    try {
      const application = (await this.client.rest.get(Routes.currentApplication())) as { id: string };
      this.restApplicationId = application.id;
      return true;
    } catch (error) {
      this.logger.error(
        { err: loggable(error) },
        'Discord refused DISCORD_TOKEN (GET /applications/@me failed); this worker posts nothing to Discord',
      );
      return false;
    }
  }

  /** Resolves once every back-fill started so far and every message received so far was handled. */
  async idle(): Promise<void> {
    await this.backfills;
    await this.messages?.settled();
  }

  async close(): Promise<void> {
    this.messages?.stop();
    await this.backfills.catch(() => undefined);
    await this.platform.settled();
    await this.deliverer.stop();
    await this.client.destroy();
  }

  private async afterReady(backfill: DiscordBackfill): Promise<void> {
    try {
      // P7: what the outbox still holds from before a restart is sent once the session is up.
      if (!this.resumed) {
        this.resumed = true;
        const resumed = await this.deliverer.resume();
        if (resumed.resent + resumed.abandoned + resumed.pruned > 0)
          this.logger.info(resumed, 'outbox resumed');
      }
      for (const guild of this.client.guilds.cache.values()) {
        const applicationId = this.client.application?.id;
        if (applicationId !== undefined)
          await registerGuildCommands(this.client.rest, applicationId, guild.id);
      }
      await backfill.run();
    } catch (error) {
      this.logger.error({ err: loggable(error) }, 'Discord start-up work failed');
    }
  }
}
