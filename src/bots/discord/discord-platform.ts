import { type REST, Routes } from 'discord.js';
import { KeyedSerialQueue } from '../../core/outbox/keyed-serial-queue';
import type { AttachmentFetcher } from '../../core/ports/attachment-fetcher';
import type {
  ChatPlatform,
  OutboundMessage,
  ReplyStream,
  ReplyStreamOpening,
  ThreadId,
} from '../../core/ports/chat-platform';
import type { Logger } from '../../core/ports/logger';
import type { PlatformGroups } from '../../core/ports/platform-groups';
import { EditedReplyStream } from '../../core/streaming/edited-reply-stream';
import type { DiscordDirectory } from './discord-directory';
import { DiscordRequestError, withoutTokens } from './discord-errors';
import {
  type DiscordThreadParts,
  decodeDiscordThreadId,
  encodeDiscordThreadId,
  isDirectConversation,
} from './discord-thread-id';
import { discordThreadLink } from './outbound/discord-note-badge';
import {
  DISCORD_CONTENT_LIMIT,
  mentionedIn,
  renderDirectBodies,
  renderDirectEditBody,
  renderEditBody,
  renderWebhookBodies,
  splitForDiscord,
} from './outbound/discord-render';
import type { DiscordCall } from './outbound/discord-sender';

/** Discord's JSON error code for "A thread has already been created for this message". */
const THREAD_ALREADY_CREATED = 160004;
const THREAD_NAME_LIMIT = 100;
/** A day: the thread stays in the channel's list while the conversation is likely to go on. */
const AUTO_ARCHIVE_MINUTES = 1440;

/** P7: hands one call to the outbox (stored, then sent in its lane's order); the posted message's id. */
export type DiscordDeliver = (
  target: { workspaceId: string | null; lane: string },
  kind: DiscordCall['kind'],
  payload: DiscordCall['payload'],
) => Promise<string | null>;

export interface DiscordPlatformOptions {
  /** The bot's REST client: starting threads and looking up channels. */
  rest: REST;
  /** Every post, edit and direct message goes through the outbox. */
  deliver: DiscordDeliver;
  directory: DiscordDirectory;
  logger: Logger;
  /** P14: a streamed reply is edited at most once per this many ms (Discord's rate limits); default 1,000. */
  streamEditIntervalMs?: number;
  /** P13: downloads files attached to people's messages (their signed CDN links). */
  attachments?: AttachmentFetcher;
  /** P24: people's server roles (the gateway's member cache). */
  groups?: PlatformGroups;
}

/** P14: room kept under 2,000 for member mentions, which grow when rendered (`@dana` → `<@…>`). */
const STREAM_PART_LIMIT = DISCORD_CONTENT_LIMIT - 100;

/**
 * The Discord side of the chat platform port. Each conversation is a thread started from the
 * message that summoned it; every post goes through the channel's webhook, under the agent's
 * name and avatar (P2), into that thread (`thread_id`), by way of the outbox (P7). It holds no
 * rules: it translates.
 */
export class DiscordPlatform implements ChatPlatform {
  readonly platform = 'discord' as const;
  private readonly threads = new Map<string, Promise<void>>();
  private readonly threadNames = new Map<string, string>();
  private readonly guilds = new Map<string, string>();
  /** One post, edit or private word at a time per thread, in the order asked (P2, P7). */
  private readonly lanes = new KeyedSerialQueue();

  readonly attachments: AttachmentFetcher | undefined;
  readonly groups: PlatformGroups | undefined;

  constructor(private readonly options: DiscordPlatformOptions) {
    this.attachments = options.attachments;
    this.groups = options.groups;
  }

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
  /** N3: the guild thread's channel link, where a paired relay's badge sends a person. */
  async threadLink(thread: ThreadId): Promise<string | null> {
    return discordThreadLink(thread);
  }

  async post(thread: ThreadId, message: OutboundMessage): Promise<string> {
    const parts = this.decode(thread);
    const direct = isDirectConversation(parts);
    return this.lanes.run(thread, async () => {
      if (!direct) await this.ensureThread(parts);
      const members = await this.options.directory.members(parts.guild, mentionedIn(message));
      const workspaceId = await this.options.directory.workspaceOf(parts.guild);
      const target = { workspaceId, lane: thread };
      const refs: string[] = [];
      const sends = direct
        ? renderDirectBodies(message, members).map(
            (body) => () => this.options.deliver(target, 'channel-message', { channel: parts.channel, body }),
          )
        : renderWebhookBodies(message, members).map(
            (body) => () =>
              this.options.deliver(target, 'webhook.execute', {
                channel: parts.channel,
                thread: parts.thread,
                body,
              }),
          );
      for (const send of sends) {
        const ref = await send();
        if (ref === null) throw new Error('Discord returned no message id.');
        refs.push(ref);
      }
      const [first] = refs;
      if (first === undefined) throw new Error('Nothing was posted.');
      return first;
    });
  }

  /**
   * P14: the reply posted under the agent's name with its first words and edited as it grows,
   * coalesced to one edit per interval; past 2,000 characters it goes on in a new message (P7).
   */
  streamReply(thread: ThreadId, opening: ReplyStreamOpening): ReplyStream {
    return new EditedReplyStream({
      platform: this,
      thread,
      as: opening.as,
      split: (text) => splitForDiscord(text, STREAM_PART_LIMIT),
      intervalMs: this.options.streamEditIntervalMs ?? 1_000,
      logger: this.options.logger.child({ component: 'discord-stream' }),
    });
  }

  /** P9, N7, G4: edits the message in place through the webhook that posted it. */
  async update(thread: ThreadId, messageRef: string, message: OutboundMessage): Promise<void> {
    const parts = this.decode(thread);
    if (!/^[0-9]{1,20}$/.test(messageRef)) throw new RangeError(`Not a Discord message id: "${messageRef}".`);
    return this.lanes.run(thread, async () => {
      const members = await this.options.directory.members(parts.guild, mentionedIn(message));
      const workspaceId = await this.options.directory.workspaceOf(parts.guild);
      if (isDirectConversation(parts)) {
        await this.options.deliver({ workspaceId, lane: thread }, 'channel-message.edit', {
          channel: parts.channel,
          messageId: messageRef,
          body: renderDirectEditBody(message, members),
        });
        return;
      }
      await this.options.deliver({ workspaceId, lane: thread }, 'webhook.edit', {
        channel: parts.channel,
        thread: parts.thread,
        messageId: messageRef,
        body: renderEditBody(message, members),
      });
      // An edit inside the thread went through: the thread exists. A turn resumed by another
      // process (T2) then posts into it without asking Discord to start it again.
      if (!this.threads.has(parts.thread)) this.knowThread(parts.thread);
    });
  }

  /**
   * Discord has no private message inside a channel outside an interaction: the person gets a
   * direct message that links the thread (interactions answer ephemerally instead).
   */
  async tellPrivately(thread: ThreadId, platformUserId: string, text: string): Promise<void> {
    const parts = this.decode(thread);
    return this.lanes.run(thread, async () => {
      const workspaceId = await this.options.directory.workspaceOf(parts.guild);
      // In a direct message, the conversation is already private.
      if (isDirectConversation(parts)) {
        await this.options.deliver({ workspaceId, lane: thread }, 'channel-message', {
          channel: parts.channel,
          body: { content: text, embeds: [], components: [], allowed_mentions: { parse: [], users: [] } },
        });
        return;
      }
      await this.options.deliver({ workspaceId, lane: `discord:dm:${platformUserId}` }, 'direct-message', {
        recipient: platformUserId,
        body: { content: privateText(text, parts.thread), allowed_mentions: { parse: [] } },
      });
    });
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
    const members = await this.options.directory.members(guild, mentionedIn(message));
    const workspaceId = await this.options.directory.workspaceOf(guild);
    const [first, ...rest] = renderWebhookBodies(message, members);
    if (first === undefined) throw new Error('A thread cannot start with an empty message.');
    const lane = `discord:${channelId}:new-threads`;
    const posted = await this.options.deliver({ workspaceId, lane }, 'webhook.execute', {
      channel: channelId,
      thread: null,
      body: first,
    });
    if (posted === null) throw new Error('Discord returned no message id.');
    const parts = { guild, channel: channelId, thread: posted };
    const thread = encodeDiscordThreadId(parts);
    this.nameThread(posted, message.content.kind === 'text' ? message.content.text : 'Summon');
    const started = this.threadFrom(channelId, posted, this.threadNames.get(posted) ?? 'Summon');
    this.threads.set(posted, started);
    await started;
    for (const body of rest)
      await this.lanes.run(thread, () =>
        this.options.deliver({ workspaceId, lane: thread }, 'webhook.execute', {
          channel: channelId,
          thread: posted,
          body,
        }),
      );
    return { thread, messageRef: posted };
  }

  /** Resolves once every post, edit and private word asked for so far went out (or failed). */
  settled(): Promise<void> {
    return this.lanes.drain();
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

  /** Starts a public thread from a message of the channel (the thread takes the message's id). */
  private async threadFrom(channel: string, messageId: string, name: string): Promise<void> {
    await withoutTokens(() =>
      this.options.rest.post(Routes.threads(channel, messageId), {
        body: { name, auto_archive_duration: AUTO_ARCHIVE_MINUTES },
      }),
    );
  }
}

/** The direct message's text: what was said, then which thread it is about (`-#` is Discord's small print). */
export const privateText = (text: string, threadChannelId: string): string =>
  `${text}\n-# in <#${threadChannelId}>`;

const clipName = (name: string) =>
  name.length <= THREAD_NAME_LIMIT ? name : `${name.slice(0, THREAD_NAME_LIMIT - 1)}…`;
