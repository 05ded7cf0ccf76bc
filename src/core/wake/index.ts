/** Which agents an agent's reply wakes (M14, M15, M19–M22): pure decisions, no I/O. */
export {
  type PlannedWake,
  type PlanWakesInput,
  planWakes,
  type TurnOutcome,
  type WakePlan,
} from './plan-wakes';
export { distinctNames, distinctOthers, type MentionedAgent, type ReplyMentions } from './reply-mentions';
export { chainOfReplier, describeChain, extendChain } from './wake-chain';
export { MAX_AGENTS_PER_REPLY, MAX_WAKE_DEPTH } from './wake-limits';
export { WAKE_REJECTION_REASONS, type WakeRejection, type WakeRejectionReason } from './wake-rejection';
