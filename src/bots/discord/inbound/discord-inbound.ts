import { type Message, MessageType } from 'discord.js';
import { type AttachmentRef, toAttachmentRefs } from '../../../core/model/attachment';
import type { InboundMessage } from '../../../core/ports/chat-platform';
import { encodeDiscordThreadId } from '../discord-thread-id';
import { type DiscordMember, translateUserMentions } from '../outbound/discord-mentions';
import { discordAttachmentRefs } from './discord-attachments';

/** Where a guild message sits: its bound (parent) channel and the conversation's thread. */
export interface MessagePlace {
  guild: string;
  /** The bound channel (a thread's parent). */
  channel: string;
  /** The thread channel; for a top-level message, its own id (the thread it starts). */
  thread: string;
  topLevel: boolean;
}

/** Where a guild message belongs, or null for one outside a guild text channel or thread. */
export function placeOf(message: Message): MessagePlace | null {
  if (message.guildId === null) return null;
  const channel = message.channel;
  if (channel.isThread()) {
    if (channel.parentId === null) return null;
    return { guild: message.guildId, channel: channel.parentId, thread: channel.id, topLevel: false };
  }
  return { guild: message.guildId, channel: channel.id, thread: message.id, topLevel: true };
}

/** People's messages only: no joins, pins or thread notices. */
export const isConversational = (message: Message): boolean =>
  message.type === MessageType.Default || message.type === MessageType.Reply;

/** What Summon keeps of a Discord message: enough to read it as the core does, later (T4). */
export interface DiscordMessageFields {
  id: string;
  authorId: string;
  content: string;
  /** The display names of the users it mentions, by id (for mentions of non-members). */
  mentionNames: Record<string, string>;
  createdAt: Date;
  /** P12: it mentions the app: its bot user or the bot's managed role (absent in older rows). */
  mentionsApp?: boolean;
  /** P12: the bot's managed roles it mentions, dropped from the text like the bot's own mention. */
  appRoleIds?: string[];
  /** P13: the files attached to it, described (fetched at the turn's start; absent: none). */
  attachments?: AttachmentRef[];
}

export function fieldsOf(message: Message): DiscordMessageFields {
  return {
    id: message.id,
    authorId: message.author.id,
    content: message.content,
    mentionNames: Object.fromEntries(
      message.mentions.users.map((user) => [user.id, user.globalName ?? user.username] as const),
    ),
    createdAt: message.createdAt,
    ...appMentionsOf(message),
    ...attachmentsOf(message),
  };
}

/** P13: present only when the message has any. */
function attachmentsOf(message: Message): Pick<DiscordMessageFields, 'attachments'> {
  const attachments = discordAttachmentRefs(message.attachments);
  return attachments.length === 0 ? {} : { attachments };
}

/** P12: the bot user, or roles Discord manages for this bot (their `tags.bot_id`). */
function appMentionsOf(message: Message): Pick<DiscordMessageFields, 'mentionsApp' | 'appRoleIds'> {
  const botId = message.client.user?.id;
  if (botId === undefined) return {};
  const roles = message.mentions.roles.filter((role) => role.tags?.botId === botId).map((role) => role.id);
  if (!message.mentions.users.has(botId) && roles.length === 0) return {};
  return { mentionsApp: true, ...(roles.length > 0 ? { appRoleIds: roles } : {}) };
}

/**
 * A Discord message as the core reads it (P6: the message id is the event id, so a gateway
 * replay and a back-fill of the same message are one event).
 */
export function toInbound(
  message: DiscordMessageFields,
  place: MessagePlace,
  context: { botUserId: string; members: readonly DiscordMember[] },
): InboundMessage {
  const names = new Map(Object.entries(message.mentionNames));
  return {
    platform: 'discord',
    eventId: message.id,
    workspace: { platform: 'discord', externalId: place.guild },
    channelId: place.channel,
    thread: encodeDiscordThreadId(place),
    topLevel: place.topLevel,
    messageRef: message.id,
    senderId: message.authorId,
    text: translateUserMentions(message.content, { ...context, names, appRoleIds: message.appRoleIds ?? [] }),
    receivedAt: message.createdAt,
    ...(message.mentionsApp === true ? { summonsApp: true } : {}),
    ...(message.attachments === undefined ? {} : { attachments: toAttachmentRefs(message.attachments) }),
  };
}
