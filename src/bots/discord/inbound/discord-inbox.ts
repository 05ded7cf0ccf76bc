import type { Client, Message } from 'discord.js';
import type { InboxEntry, InboxRecord } from '../../../core/model/inbox';
import type { ChatDirectory } from '../../../core/ports/chat-directory';
import type { InboxDecision, InboxDecoder } from '../../../core/ports/inbox-decoder';
import type { Logger } from '../../../core/ports/logger';
import { discordDirectory } from '../discord-directory';
import { loggable } from '../discord-errors';
import type { DiscordPlatform } from '../discord-platform';
import { encodeDiscordThreadId } from '../discord-thread-id';
import { mentionedUserIds } from '../outbound/discord-mentions';
import {
  type DiscordMessageFields,
  fieldsOf,
  type MessagePlace,
  placeOf,
  toInbound,
} from './discord-inbound';

/** The answer to a direct message from someone who is a member of no workspace of the bot's servers. */
export const DIRECT_MESSAGE_ANSWER =
  'Summon answers members of a linked workspace here. In your server, ask an admin for a one-time code and send `/summon link-account <code>`; or mention an agent in a linked channel (`@engineer fix the login bug`) or use `/ask`.';

/** What the Discord front end stores of a message (T4). */
type DiscordInboxPayload =
  | { kind: 'guild'; place: MessagePlace; message: DiscordMessageFields }
  | { kind: 'direct'; channelId: string; message: DiscordMessageFields };

/**
 * T4: the inbox entry of a person's Discord message (the caller has dropped Summon's own posts
 * and bots', P10), or null for one outside a guild text channel, a thread or a DM. Nothing is
 * looked up: whether the channel is bound is read when the row is routed.
 */
export function discordInboxEntry(message: Message, receivedAt: Date): InboxEntry | null {
  const fields = fieldsOf(message);
  if (message.guildId === null) {
    const payload: DiscordInboxPayload = { kind: 'direct', channelId: message.channel.id, message: fields };
    return {
      platform: 'discord',
      eventId: message.id,
      threadKey: `dm:${message.channel.id}`,
      channelKey: null,
      payload,
      receivedAt,
    };
  }
  const place = placeOf(message);
  if (place === null) return null;
  const payload: DiscordInboxPayload = { kind: 'guild', place, message: fields };
  // P6: the message id is the event id, as processed_inbound_events has always recorded it.
  return {
    platform: 'discord',
    eventId: message.id,
    threadKey: encodeDiscordThreadId(place),
    channelKey: place.topLevel ? `discord:${place.guild}:${place.channel}` : null,
    payload,
    receivedAt,
  };
}

function payloadOf(record: InboxRecord): DiscordInboxPayload {
  const payload = record.payload as DiscordInboxPayload | null;
  if ((payload?.kind !== 'guild' && payload?.kind !== 'direct') || typeof payload.message?.id !== 'string') {
    throw new Error(`Inbox row ${record.id} holds no Discord message.`);
  }
  return { ...payload, message: { ...payload.message, createdAt: new Date(payload.message.createdAt) } };
}

export interface DiscordInboxDecoderDeps {
  client: Client;
  platform: DiscordPlatform;
  logger: Logger;
  botUserId: () => string | null;
  /** The servers the bot is in: where a direct message's sender may be a member. */
  guildIds: () => string[];
}

/**
 * T4: a stored Discord message read back after it was taken in, inside the routing
 * transaction: bound channels only (P1), mentions as members' nicknames (M11), a direct
 * message said to be one (the core makes its one-person space), and the channel's back-fill
 * cursor moved with the routing (P11).
 */
export class DiscordInboxDecoder implements InboxDecoder {
  private readonly answeredDirectChannels = new Set<string>();

  constructor(private readonly deps: DiscordInboxDecoderDeps) {}

  decode(record: InboxRecord, directory: ChatDirectory): Promise<InboxDecision> {
    const payload = payloadOf(record);
    return payload.kind === 'guild'
      ? this.guildMessage(payload.place, payload.message, directory)
      : this.directMessage(payload.channelId, payload.message, directory);
  }

  private async guildMessage(
    place: MessagePlace,
    message: DiscordMessageFields,
    chat: ChatDirectory,
  ): Promise<InboxDecision> {
    const directory = discordDirectory(chat);
    // T3: both asked at once, so they go to the database as one round trip.
    const [bound, members] = await Promise.all([
      directory.isBoundChannel(place.guild, place.channel),
      directory.members(place.guild, { accounts: mentionedUserIds(message.content) }),
    ]);
    if (!bound) return { kind: 'drop', reason: 'channel not bound to a space' };
    const inbound = toInbound(message, place, { botUserId: this.deps.botUserId() ?? '', members });
    if (place.topLevel) this.deps.platform.nameThread(place.thread, inbound.text);
    else this.deps.platform.knowThread(place.thread);
    // P11: the cursor moves in the routing's transaction: routed and remembered, or neither.
    await chat.advanceCursor('discord', {
      channelId: place.topLevel ? place.channel : place.thread,
      parentChannelId: place.topLevel ? null : place.channel,
      messageId: message.id,
    });
    return {
      kind: 'route',
      message: inbound,
      afterCommit: async (outcome) => this.handled(message, outcome.kind),
    };
  }

  /**
   * P1: a direct message is routed in the person's one-person space (the core makes it on a
   * member's first message); the DM channel is one conversation. Someone who is no member of
   * a workspace of the bot's servers is told once how to become one, and nothing runs.
   */
  private async directMessage(
    dm: string,
    message: DiscordMessageFields,
    chat: ChatDirectory,
  ): Promise<InboxDecision> {
    const directory = discordDirectory(chat);
    const guild = await directory.guildOfDirectMessage(dm, message.authorId, this.deps.guildIds());
    if (guild === null) {
      return { kind: 'drop', reason: 'not a member', afterCommit: () => this.answerDirectMessage(dm) };
    }
    const place = { guild, channel: dm, thread: dm, topLevel: false };
    const members = await directory.members(guild, { accounts: mentionedUserIds(message.content) });
    const inbound = toInbound(message, place, { botUserId: this.deps.botUserId() ?? '', members });
    return {
      kind: 'route',
      message: inbound,
      direct: { platform: 'discord', teamId: guild, channelId: dm, userId: message.authorId },
      afterCommit: async (outcome) => this.handled(message, outcome.kind),
    };
  }

  /** Once per direct-message channel and process: where to go instead (nothing runs). */
  private async answerDirectMessage(channelId: string): Promise<void> {
    if (this.answeredDirectChannels.has(channelId)) return;
    this.answeredDirectChannels.add(channelId);
    try {
      const channel = await this.deps.client.channels.fetch(channelId);
      if (channel?.isSendable() !== true) return;
      await channel.send({ content: DIRECT_MESSAGE_ANSWER, allowedMentions: { parse: [] } });
    } catch (error) {
      this.deps.logger.warn(
        { err: loggable(error), channelId },
        'the direct-message answer could not be sent',
      );
    }
  }

  private handled(message: DiscordMessageFields, outcome: string): void {
    this.deps.logger.debug({ messageId: message.id, outcome }, 'Discord message handled');
  }
}
