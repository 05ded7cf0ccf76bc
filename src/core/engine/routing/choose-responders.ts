/** What routing knows about a person's message and its conversation. */
export interface RoutingInput {
  /** Agents the message mentions, resolved (M4, M5), in order of first mention. */
  mentionedAgentIds: readonly string[];
  /** M7: the message is only mentions. */
  mentionOnly: boolean;
  /** P3: a dedicated space answers every message. */
  dedicated: boolean;
  /** P3: a top-level message, not a reply in a thread. */
  topLevel: boolean;
  /** P12: the message mentions the app itself, which summons the M3 responder. */
  summonsApp?: boolean;
  /** M3: the agent that spoke last in the conversation. */
  lastAgentId: string | null;
  ownerAgentId: string | null;
  /** The space's agent participants in participant order, with their superior. */
  participants: readonly { id: string; reportsToId: string | null }[];
}

/**
 * Which agents a person's message starts (M1, M3, M7, M8, P3, P12). Pure: the caller has
 * resolved mentions and loaded the conversation.
 */
export function chooseResponders(input: RoutingInput): string[] {
  // M7: a message made only of mentions starts nobody.
  if (input.mentionOnly) return [];
  // M1, M8: every mentioned agent, in parallel.
  if (input.mentionedAgentIds.length > 0) return [...new Set(input.mentionedAgentIds)];
  // P12: the app's own mention summons the M3 responder, P3 notwithstanding.
  if (input.summonsApp === true) {
    const summoned = defaultResponder(input);
    return summoned === null ? [] : [summoned];
  }
  // P3: in a channel shared with people, a top-level message without a mention is for people.
  if (!input.dedicated && input.topLevel) return [];
  // P3: a reply in a thread follows M3 only where an agent has spoken (or owns the thread).
  const responder = defaultResponder(input);
  if (!input.dedicated && input.lastAgentId === null && input.ownerAgentId === null) return [];
  return responder === null ? [] : [responder];
}

/** M3: the last agent that spoke; else the owner; else the first top-level participant. */
function defaultResponder(input: RoutingInput): string | null {
  if (input.participants.length === 1) return input.participants[0]?.id ?? null;
  if (input.lastAgentId !== null) return input.lastAgentId;
  if (input.ownerAgentId !== null) return input.ownerAgentId;
  return input.participants.find((agent) => agent.reportsToId === null)?.id ?? null;
}
