import {
  type AgentCandidate,
  foldName,
  groupInOrder,
  type MemberCandidate,
  type MentionSpan,
} from './mention-candidates';

/** Shapes shared by both parsers' results. Spans are kept so callers can point at the text. */

/** One distinct agent reached by the text, with every place it was named. */
export interface AgentMention {
  agent: AgentCandidate;
  spans: MentionSpan[];
}

/** M11: a human reached by a person's message; metadata for the notification router. */
export interface MemberMention {
  member: MemberCandidate;
  spans: MentionSpan[];
}

/**
 * M21: a token that reached nobody. Grouped case-insensitively; `token` is the first
 * spelling typed.
 */
export interface UnresolvedMention {
  token: string;
  spans: MentionSpan[];
}

export function groupUnresolved(spans: readonly MentionSpan[]): UnresolvedMention[] {
  return groupInOrder(spans, (span) => foldName(span.token)).map(({ first, all }) => ({
    token: first.token,
    spans: all,
  }));
}
