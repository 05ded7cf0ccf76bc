import type { OutboundMessage } from '../../../core/ports/chat-platform';
import { type SplitOptions, splitMessage } from '../../../core/text/split-message';
import { type ActionRow, cardBody, type Embed } from './discord-card-bodies';
import { type DiscordMember, mentionMembers, NO_MENTIONS, writtenNicknames } from './discord-mentions';
import { webhookUsername } from './webhook-username';

/** P7: Discord's limit for a message's `content`. */
export const DISCORD_CONTENT_LIMIT = 2000;

/**
 * P7: what Discord needs of a split: no part of whitespace only (refused as empty), no line
 * break a part ends at, and a fence the reply leaves open closed in its last part too.
 */
const DISCORD_SPLIT: SplitOptions = { breakAtCut: 'drop', blankParts: 'drop', lastFence: 'close' };

/** P7: a reply in parts of at most `limit` characters (Discord's 2,000 by default), the core's split. */
export const splitForDiscord = (text: string, limit = DISCORD_CONTENT_LIMIT): string[] =>
  splitMessage(text, limit, DISCORD_SPLIT);

/** The JSON body of one webhook execute or edit (Discord's field names). */
export interface WebhookBody {
  content: string;
  username?: string;
  avatar_url?: string;
  embeds: Embed[];
  components: ActionRow[];
  allowed_mentions: { parse: []; users: string[] };
}

/** M11: whose members a message's rendering may mention: the nicknames an agent's text writes. */
export const mentionedIn = (message: OutboundMessage): { nicknames: string[] } => ({
  nicknames:
    message.content.kind === 'text' && message.as.kind === 'agent'
      ? writtenNicknames(message.content.text)
      : [],
});

/**
 * P2, P4, P5, P9: an outbound message as Discord webhook bodies. Text splits into as many
 * bodies as it needs (P7); a card is always one body, so it can be edited in place.
 */
export function renderWebhookBodies(
  message: OutboundMessage,
  members: readonly DiscordMember[],
): WebhookBody[] {
  const persona = personaOf(message.as);
  const { content } = message;
  if (content.kind === 'text') {
    const mapped =
      message.as.kind === 'agent'
        ? mentionMembers(content.text, members)
        : { content: content.text, allowedMentions: NO_MENTIONS };
    return splitForDiscord(mapped.content).map((part) => ({
      ...persona,
      content: part,
      embeds: [],
      components: [],
      allowed_mentions: mapped.allowedMentions,
    }));
  }
  return [{ ...persona, ...cardBody(content), allowed_mentions: NO_MENTIONS }];
}

/** The body of an edit: the persona cannot change once posted, so it is left out. */
export function renderEditBody(message: OutboundMessage, members: readonly DiscordMember[]): WebhookBody {
  const [first, ...rest] = renderWebhookBodies(message, members);
  if (first === undefined || rest.length > 0) {
    throw new RangeError('An edit must fit in one Discord message (2,000 characters).');
  }
  const { username: _username, avatar_url: _avatar, ...body } = first;
  return body;
}

/** A message the bot posts as itself: no persona. */
export type DirectBody = Omit<WebhookBody, 'username' | 'avatar_url'>;

/**
 * P1, P2: in a direct message there are no webhooks, so the bot posts as itself and an agent's
 * text starts with the agent's name in bold; cards name their agent already.
 */
export function renderDirectBodies(
  message: OutboundMessage,
  members: readonly DiscordMember[],
): DirectBody[] {
  const { content } = message;
  if (content.kind === 'text' && message.as.kind === 'agent') {
    const label = `**${message.as.name}**\n`;
    const mapped = mentionMembers(content.text, members);
    return splitForDiscord(mapped.content, DISCORD_CONTENT_LIMIT - label.length).map((part) => ({
      content: `${label}${part}`,
      embeds: [],
      components: [],
      allowed_mentions: mapped.allowedMentions,
    }));
  }
  return renderWebhookBodies(message, members).map(
    ({ username: _username, avatar_url: _avatar, ...body }) => body,
  );
}

/** The body of an edit in a direct message. */
export function renderDirectEditBody(
  message: OutboundMessage,
  members: readonly DiscordMember[],
): DirectBody {
  const [first, ...rest] = renderDirectBodies(message, members);
  if (first === undefined || rest.length > 0) {
    throw new RangeError('An edit must fit in one Discord message (2,000 characters).');
  }
  return first;
}

const SYSTEM_NAME = 'Summon';

function personaOf(as: OutboundMessage['as']): Pick<WebhookBody, 'username' | 'avatar_url'> {
  if (as.kind === 'system') return { username: SYSTEM_NAME };
  return {
    username: webhookUsername(as.name),
    ...(as.avatarUrl === null ? {} : { avatar_url: as.avatarUrl }),
  };
}
