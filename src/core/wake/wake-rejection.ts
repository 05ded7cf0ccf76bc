/** M21: why a mention in an agent's reply did not wake anyone. */
export const WAKE_REJECTION_REASONS = ['depth', 'cycle', 'rate', 'too_many', 'ambiguous'] as const;
export type WakeRejectionReason = (typeof WAKE_REJECTION_REASONS)[number];

/** One system message to post in the conversation (M21). */
export interface WakeRejection {
  /** The mention as people saw it: `@qa`, or for M19 the whole list `@a, @b, @c, @d`. */
  mention: string;
  reason: WakeRejectionReason;
  /** The sentence people read in the thread. */
  message: string;
  /** The agents this message is about: one, all of M19's list, or none for an ambiguous name. */
  agentIds: string[];
}
