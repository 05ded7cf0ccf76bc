import type { InboundMessage } from '../ports/chat-platform';
import type { InboxDecision } from '../ports/inbox-decoder';
import type { Store } from '../ports/store';
import { ensureDirectSpace } from '../spaces/direct-space';

/** Tells the sender of a message, in its thread, why it was not routed (a system message). */
export type TellInThread = (message: InboundMessage, sentence: string) => Promise<void>;

/**
 * P1: a decoded direct message (its front end named the person, team and channel) is routed in
 * the person's one-person space with the top-level agent, made on a member's first message,
 * inside the routing transaction (`store`). Someone who is no member, or a team no workspace
 * owns, is told why once the drop committed, and nothing runs.
 */
export async function admitDirectMessage(
  store: Store,
  decision: InboxDecision,
  tell: TellInThread,
): Promise<InboxDecision> {
  if (decision.kind !== 'route' || decision.direct === undefined) return decision;
  const space = await ensureDirectSpace(store, decision.direct);
  if (space.ok) return decision;
  const { message } = decision;
  return { kind: 'drop', reason: space.reason, afterCommit: () => tell(message, space.reason) };
}
