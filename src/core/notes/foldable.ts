import type { AuthorKind } from '../model/message';

/** A message of a conversation, as far as folding is concerned. */
export interface FoldCandidate {
  authorKind: AuthorKind;
  /** A prompt starts or steers a turn; a reply answers one; a card belongs to a turn. */
  role: 'prompt' | 'reply' | 'card';
  /** N10: an agent's prompt that steers a running turn shows as part of that turn. */
  steersRunningTurn?: boolean;
}

/**
 * N6, N10: only a note (a prompt an agent sent) may fold. People's messages, every reply
 * (to people or to notes), the turn in progress and its cards, and an agent's prompt used
 * to steer a running turn are always shown in full.
 */
export function mayFold(message: FoldCandidate): boolean {
  return message.authorKind === 'agent' && message.role === 'prompt' && message.steersRunningTurn !== true;
}
