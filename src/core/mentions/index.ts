export {
  type AgentReplyCandidates,
  type AgentReplyMentions,
  type AmbiguousMention,
  parseAgentReply,
} from './agent-reply-mentions';
export { type CodeRange, type CodeScanOptions, findCodeRanges, maskCode } from './code-spans';
export type { AgentCandidate, MemberCandidate, MentionSpan } from './mention-candidates';
export type { AgentMention, MemberMention, UnresolvedMention } from './mention-results';
export {
  type MatchedPrincipal,
  type MentionHint,
  type PersonMentionCandidates,
  type PersonMessageMentions,
  parsePersonMessage,
  personMentionPrefixes,
} from './person-mentions';
