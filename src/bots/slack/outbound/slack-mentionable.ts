import type { OutboundMessage } from '../../../core/ports/chat-platform';
import { type SlackMemberRef, writtenNicknames } from './slack-mrkdwn';

/** P1, M11: the channel's owner, with its members holding one of `nicknames`. */
export type ChannelOwnerOf = (
  channel: string,
  nicknames: readonly string[],
) => Promise<{ members: readonly SlackMemberRef[] } | null>;

/** M11: the text of a message that may mention members: an agent's; '' for anything else. */
export const agentTextOf = (message: OutboundMessage): string =>
  message.content.kind === 'text' && message.as.kind === 'agent' ? message.content.text : '';

/** M11: the nicknames whose members a message may mention. */
export const nicknamesToMention = (message: OutboundMessage): string[] =>
  writtenNicknames(agentTextOf(message));

/**
 * M11: the members an agent's text may mention: `known` (a turn's people, T3: no look-up),
 * and the channel owner's members of any other nickname it writes (read by nickname, never
 * the whole team).
 */
export function mentionableIn(
  channelOwner: ChannelOwnerOf,
  channel: string,
  known: readonly SlackMemberRef[] = [],
): (text: string) => Promise<readonly SlackMemberRef[]> {
  const have = new Set(known.map((m) => m.nickname.toLowerCase()));
  return async (text) => {
    const missing = writtenNicknames(text).filter((name) => !have.has(name));
    if (missing.length === 0) return known;
    return [...known, ...((await channelOwner(channel, missing))?.members ?? [])];
  };
}
