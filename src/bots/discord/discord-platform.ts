import { type REST, Routes } from 'discord.js';
import type { ChatPlatform, OutboundMessage, ThreadId } from '../../core/ports/chat-platform';
import type { Logger } from '../../core/ports/logger';
import type { DiscordDirectory } from './discord-directory';
import { DiscordRequestError, UNKNOWN_WEBHOOK, withoutTokens } from './discord-errors';
import { renderEditBody, renderWebhookBodies, type WebhookBody } from './discord-render';
import { type DiscordThreadParts, decodeDiscordThreadId, encodeDiscordThreadId } from './discord-thread-id';
import type { ChannelWebhook, DiscordWebhooks } from './discord-webhooks';

/** Discord's JSON error code for "A thread has already been created for this message". */
const THREAD_ALREADY_CREATED = 160004;
const THREAD_NAME_LIMIT = 100;
/** A day: the thread stays in the channel's list while the conversation is likely to go on. */
const AUTO_ARCHIVE_MINUTES = 1440;

interface MessageResponse {
  id: string;
}

export interface DiscordPlatformOptions {
  rest: REST;
  webhooks: DiscordWebhooks;
  directory: DiscordDirectory;
  logger: Logger;
}

/**
 * The Discord side of the chat platform port. Each conversation is a thread started from the
 * message that summoned it; every post goes through the channel's webhook, under the agent's
 * name and avatar (P2), into that thread (`thread_id`). It holds no rules: it translates.
 */
export class DiscordPlatform implements ChatPlatform {
  readonly platform = 'discord' as const;
  private readonly threads = new Map<string, Promise<void>>();
  private readonly threadNames = new Map<string, string>();
  private readonly guilds = new Map<string, string>();

  constructor(private readonly options: DiscordPlatformOptions) {}

  /** The inbound side names a thread before the first post starts it (the summoning message's text). */
  nameThread(threadChannelId: string, text: string): void {
    const line = text.trim().split('\n')[0]?.trim() ?? '';
    this.threadNames.set(threadChannelId, clipName(line === '' ? 'Summon' : line));
  }

  /** A thread that exists already (a message arrived from inside it). */
  knowThread(threadChannelId: string): void {
    this.threads.set(threadChannelId, Promise.resolve());
  }

  /** P2, P7: posted in order, split at 2,000 characters; the ref is the first part's message id. */
  async post(thread: ThreadId, message: OutboundMessage): Promise<string> {
    const parts = this.decode(thread);
    await this.ensureThread(parts);
    const members = await this.options.directory.members(parts.guild);
    const refs: string[] = [];
    for (const body of renderWebhookBodies(message, members)) refs.push(await this.postBody(parts, body));
    const [first] = refs;
    if (first === undefined) throw new Error('Nothing was posted.');
    return first;
  }

  /** One webhook execute into the thread; the posted message's id. */
  private async postBody(parts: DiscordThreadParts, body: WebhookBody): Promise<string> {
    const posted = await this.throughWebhook(parts.channel, (webhook) =>
      this.options.rest.post(Routes.webhook(webhook.id, webhook.token), {
        body,
        query: new URLSearchParams({ wait: 'true', thread_id: parts.thread }),
        auth: false,
      }),
    );
    return (posted as MessageResponse).id;
  }

  /** P9, N7, G4: edits the message in place through the webhook that posted it. */
  async update(thread: ThreadId, messageRef: string, message: OutboundMessage): Promise<void> {
    const parts = this.decode(thread);
    if (!/^[0-9]{1,20}$/.test(messageRef)) throw new RangeError(`Not a Discord message id: "${messageRef}".`);
    const members = await this.options.directory.members(parts.guild);
    const body = renderEditBody(message, members);
    await this.throughWebhook(parts.channel, (webhook) =>
      this.options.rest.patch(Routes.webhookMessage(webhook.id, webhook.token, messageRef), {
        body,
        query: new URLSearchParams({ thread_id: parts.thread }),
        auth: false,
      }),
    );
  }

  /**
   * A request through the channel's webhook. Errors carry no webhook token (it is a secret);
   * a webhook someone deleted is replaced once, so posting goes on.
   */
  private async throughWebhook<T>(
    channel: string,
    request: (webhook: ChannelWebhook) => Promise<T>,
  ): Promise<T> {
    const attempt = async () =>
      withoutTokens(async () => request(await this.options.webhooks.forChannel(channel)));
    try {
      return await attempt();
    } catch (error) {
      if (!(error instanceof DiscordRequestError) || error.code !== UNKNOWN_WEBHOOK) throw error;
      this.options.logger.warn({ channel }, 'the channel’s webhook was deleted; making a new one');
      this.options.webhooks.forget(channel);
      return attempt();
    }
  }

  /**
   * Discord has no private message inside a channel outside an interaction: the person gets a
   * direct message that links the thread (interactions answer ephemerally instead).
   */
  async tellPrivately(thread: ThreadId, platformUserId: string, text: string): Promise<void> {
    const parts = this.decode(thread);
    const dm = (await withoutTokens(() =>
      this.options.rest.post(Routes.userChannels(), { body: { recipient_id: platformUserId } }),
    )) as MessageResponse;
    await withoutTokens(() =>
      this.options.rest.post(Routes.channelMessages(dm.id), {
        body: { content: privateText(text, parts.thread), allowed_mentions: { parse: [] } },
      }),
    );
  }

  /**
   * N4, M23: a conversation an agent started. The first message goes into the channel through
   * the channel's webhook (under the agent's name, P2); a public thread is started from it
   * (`POST /channels/{channel}/messages/{message}/threads`), so the thread's id is the
   * message's. Parts of a long first message follow inside the thread.
   */
  async startThread(
    channelId: string,
    message: OutboundMessage,
  ): Promise<{ thread: ThreadId; messageRef: string }> {
    const guild = await this.guildOf(channelId);
    const members = await this.options.directory.members(guild);
    const [first, ...rest] = renderWebhookBodies(message, members);
    if (first === undefined) throw new Error('A thread cannot start with an empty message.');
    const posted = (await this.throughWebhook(channelId, (webhook) =>
      this.options.rest.post(Routes.webhook(webhook.id, webhook.token), {
        body: first,
        query: new URLSearchParams({ wait: 'true' }),
        auth: false,
      }),
    )) as MessageResponse;
    const parts = { guild, channel: channelId, thread: posted.id };
    const name = message.content.kind === 'text' ? message.content.text : 'Summon';
    this.nameThread(posted.id, name);
    const started = this.threadFrom(channelId, posted.id, this.threadNames.get(posted.id) ?? 'Summon');
    this.threads.set(posted.id, started);
    await started;
    for (const body of rest) await this.postBody(parts, body);
    return { thread: encodeDiscordThreadId(parts), messageRef: posted.id };
  }

  /** The guild a channel belongs to (Discord's channel object), kept once known. */
  private async guildOf(channelId: string): Promise<string> {
    const known = this.guilds.get(channelId);
    if (known !== undefined) return known;
    const channel = (await withoutTokens(() => this.options.rest.get(Routes.channel(channelId)))) as {
      guild_id?: string;
    };
    if (channel.guild_id === undefined) throw new RangeError(`Channel ${channelId} is not in a server.`);
    this.guilds.set(channelId, channel.guild_id);
    return channel.guild_id;
  }

  /** Starts a public thread from a message of the channel (the thread takes the message's id). */
  private async threadFrom(channel: string, messageId: string, name: string): Promise<void> {
    await withoutTokens(() =>
      this.options.rest.post(Routes.threads(channel, messageId), {
        body: { name, auto_archive_duration: AUTO_ARCHIVE_MINUTES },
      }),
    );
  }

  private decode(thread: ThreadId): DiscordThreadParts {
    const parts = decodeDiscordThreadId(thread);
    if (parts === null) throw new RangeError(`Not a Discord thread id: "${thread}".`);
    return parts;
  }

  /** P2: the first post of a conversation starts its thread from the summoning message. */
  private ensureThread(parts: DiscordThreadParts): Promise<void> {
    let started = this.threads.get(parts.thread);
    if (started === undefined) {
      started = this.threadFromSummoningMessage(parts);
      started.catch(() => this.threads.delete(parts.thread));
      this.threads.set(parts.thread, started);
    }
    return started;
  }

  private async threadFromSummoningMessage(parts: DiscordThreadParts): Promise<void> {
    try {
      await this.threadFrom(parts.channel, parts.thread, this.threadNames.get(parts.thread) ?? 'Summon');
      this.options.logger.debug({ channel: parts.channel, thread: parts.thread }, 'thread started');
    } catch (error) {
      if (error instanceof DiscordRequestError && error.code === THREAD_ALREADY_CREATED) return;
      throw error;
    }
  }
}

/** The direct message's text: what was said, then which thread it is about (`-#` is Discord's small print). */
export const privateText = (text: string, threadChannelId: string): string =>
  `${text}\n-# in <#${threadChannelId}>`;

const clipName = (name: string) =>
  name.length <= THREAD_NAME_LIMIT ? name : `${name.slice(0, THREAD_NAME_LIMIT - 1)}…`;
