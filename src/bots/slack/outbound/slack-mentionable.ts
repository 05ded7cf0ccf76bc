import { type SlackMemberRef, writtenNicknames } from './slack-mrkdwn';

/**
 * M11: the members an agent's `text` may mention: `known` (a turn's people, T3: no look-up),
 * and when it names anyone else, the members of the channel's owner.
 */
export async function mentionable(
  channelOwner: (channel: string) => Promise<{ members: readonly SlackMemberRef[] } | null>,
  channel: string,
  text: string,
  known: readonly SlackMemberRef[],
): Promise<readonly SlackMemberRef[]> {
  const have = new Set(known.map((m) => m.nickname.toLowerCase()));
  if (writtenNicknames(text).every((name) => have.has(name))) return known;
  return (await channelOwner(channel))?.members ?? known;
}
