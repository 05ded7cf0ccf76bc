import type { PersonMessageMentions } from '../../mentions';
import type { AgentRecord, SpaceRecord } from '../../model/records';
import type { InboundMessage } from '../../ports/chat-platform';
import type { RoutingReads } from '../../ports/routing-reads';
import type { StoreTx } from '../../ports/store';
import { appHelp } from './app-help';
import { chooseResponders } from './choose-responders';
import type { StoredMessage } from './record-message';

/** Who answers a message: the agents it starts, or (P12) the app's short help instead. */
export type Choice =
  | { kind: 'responders'; responders: string[]; agents: ReadonlyMap<string, AgentRecord> }
  | { kind: 'help'; help: string };

/** What choosing reads of the message. */
export interface ChoiceInput {
  message: Pick<InboundMessage, 'text' | 'topLevel' | 'summonsApp'>;
  parsed: PersonMessageMentions;
  space: SpaceRecord;
  reads: Pick<RoutingReads, 'agents' | 'participants'>;
  stored: StoredMessage;
}

/**
 * M2, then M1–M8, P3 (`chooseResponders`) and P12: the mentioned agents join the space, the
 * responders are chosen among its participants, and the app's mention that starts nobody is
 * answered with a short help.
 */
export async function chooseForMessage(tx: StoreTx, input: ChoiceInput): Promise<Choice> {
  const { message, parsed, space, stored } = input;
  const agents = new Map(input.reads.agents.map((a) => [a.id, a]));
  const participants = (await joinMentioned(tx, space, input.reads.participants, parsed)).flatMap((p) => {
    const agent = p.kind === 'agent' ? agents.get(p.agentId) : undefined;
    return agent ? [{ id: agent.id, reportsToId: agent.reportsToId }] : [];
  });
  const responders = chooseResponders({
    mentionedAgentIds: parsed.agents.map(({ agent }) => agent.id),
    mentionOnly: parsed.isMentionOnly,
    dedicated: space.dedicated,
    topLevel: message.topLevel,
    summonsApp: message.summonsApp === true,
    lastAgentId: stored.fresh ? null : await tx.messages.lastAgentAuthorId(stored.conversation.id),
    ownerAgentId: stored.conversation.ownerAgentId,
    participants,
  });
  // P12: the app's mention alone, or one no agent here answers (M3 finds none): a short help.
  const alone = appAlone(message, parsed);
  if (message.summonsApp === true && parsed.agents.length === 0 && (alone || responders.length === 0)) {
    const names = participants.flatMap((p) => agents.get(p.id)?.name ?? []);
    return { kind: 'help', help: appHelp(names, { alone }) };
  }
  return { kind: 'responders', responders, agents };
}

/** P12: the app's mention and nothing else: a short help, nobody starts, nothing is answered. */
export function appAlone(
  message: Pick<InboundMessage, 'text' | 'summonsApp'>,
  parsed: Pick<PersonMessageMentions, 'agents'>,
): boolean {
  return message.summonsApp === true && parsed.agents.length === 0 && !hasWords(message.text);
}

/**
 * M2: a mentioned agent that is not yet a participant joins the space. The list is read again
 * only after an addition (made here or by another transaction meanwhile): most mentions name
 * participants already there, and cost one statement.
 */
async function joinMentioned(
  tx: StoreTx,
  space: SpaceRecord,
  participants: RoutingReads['participants'],
  parsed: PersonMessageMentions,
): Promise<RoutingReads['participants']> {
  let added = false;
  for (const { agent } of parsed.agents) {
    if (participants.some((p) => p.kind === 'agent' && p.agentId === agent.id)) continue;
    await tx.spaces.addParticipant(space.id, { kind: 'agent', agentId: agent.id });
    added = true;
  }
  return added ? tx.spaces.listParticipants(space.id) : participants;
}

/** Anything but whitespace and punctuation. */
const hasWords = (text: string): boolean => /[\p{L}\p{N}]/u.test(text);
