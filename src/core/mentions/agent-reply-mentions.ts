import { maskCode } from './code-spans';
import { type AgentCandidate, groupInOrder, type MentionSpan, matchCandidates } from './mention-candidates';
import { type AgentMention, groupUnresolved, type UnresolvedMention } from './mention-results';
import { scanMentionTokens } from './mention-tokens';

/**
 * Mentions in an agent's reply (M14–M22). Stricter than a person's, because nobody watches
 * to correct a wrong guess: exact names only, code ignored, glued `@`s ignored.
 *
 * This only resolves names. Whether the named agents are actually woken (M19's "more than
 * three is a list", M20's depth, cycle and rate limits) is the wake chain's decision.
 */

export interface AgentReplyCandidates {
  /** Every agent a reply may name (the workspace's agents). */
  agents: readonly AgentCandidate[];
  /** The agent that wrote the reply (M22). */
  selfId: string;
}

/** M15: a name two agents share reaches neither; reported so the caller can say so (M21). */
export interface AmbiguousMention {
  token: string;
  spans: MentionSpan[];
  matches: AgentCandidate[];
}

export interface AgentReplyMentions {
  /** Distinct agents named, in order of first appearance, never the author (M22). */
  agents: AgentMention[];
  ambiguous: AmbiguousMention[];
  /** M21: names that reached nobody; the caller posts nothing for these. */
  unresolved: UnresolvedMention[];
  /** M22: the author named itself; ignored, but reported for the record. */
  selfMentioned: boolean;
}

export function parseAgentReply(text: string, candidates: AgentReplyCandidates): AgentReplyMentions {
  // M16: code is not text. M17: glued @ is not a mention. M18: hyphens are kept.
  const spans = scanMentionTokens(text, maskCode(text), { grammar: 'agent', chained: false });

  const agentHits: { agent: AgentCandidate; span: MentionSpan }[] = [];
  const ambiguousHits: { matches: AgentCandidate[]; span: MentionSpan }[] = [];
  const unresolvedSpans: MentionSpan[] = [];
  let selfMentioned = false;
  for (const span of spans) {
    // M15: exact names only (case-insensitive: names are slugs, and `@Alice` from a model is
    // no guess), so `@arch` never reaches `architect`.
    const matches = matchCandidates(candidates.agents, (agent) => agent.name, span.token, 'exact');
    const [only] = matches;
    if (matches.length > 1) ambiguousHits.push({ matches, span });
    else if (!only) unresolvedSpans.push(span);
    else if (only.id === candidates.selfId)
      selfMentioned = true; // M22
    else agentHits.push({ agent: only, span });
  }

  return {
    agents: groupInOrder(agentHits, ({ agent }) => agent.id).map(({ first, all }) => ({
      agent: first.agent,
      spans: all.map(({ span }) => span),
    })),
    ambiguous: groupInOrder(ambiguousHits, ({ matches }) => matches.map((agent) => agent.id).join('\n')).map(
      ({ first, all }) => ({
        token: first.span.token,
        spans: all.map(({ span }) => span),
        matches: first.matches,
      }),
    ),
    unresolved: groupUnresolved(unresolvedSpans),
    selfMentioned,
  };
}
