import type { ChatDirectory } from '../../../core/ports/chat-directory';
import type { Logger } from '../../../core/ports/logger';

/** What a person of another team is told when Slack lets us answer them privately. */
export const FOREIGN_CHANNEL_NOTICE =
  'This channel belongs to another workspace; Summon acts here only for its own team.';

/**
 * A2, P8: one token may serve several teams (an org-wide install), so a request of one team may
 * name a channel another team's workspace owns. True when it does: the caller acts on nothing
 * and writes nothing into that channel, and one warn line names the team and the channel (never
 * the token). A channel bound to no workspace belongs to nobody else: false; nor is a direct
 * message's (`D…`) asked, as its team is settled by the core (P1), as for its messages.
 */
export async function isForeignChannel(
  directory: ChatDirectory,
  request: { teamId: string; channel: string; what: string },
  logger: Logger,
): Promise<boolean> {
  if (request.channel.startsWith('D')) return false;
  const owner = await directory.teamOfChannel('slack', request.channel);
  if (owner === null || owner === request.teamId) return false;
  logger.warn(
    { component: 'slack', team: request.teamId, channel: request.channel },
    `Slack ${request.what} refused: the channel belongs to another team’s workspace`,
  );
  return true;
}
