import { maskCode } from './code-spans';
import {
  type AgentCandidate,
  foldName,
  groupInOrder,
  type MemberCandidate,
  type MentionSpan,
  matchCandidates,
} from './mention-candidates';
import {
  type AgentMention,
  groupUnresolved,
  type MemberMention,
  type UnresolvedMention,
} from './mention-results';
import { hasSubstance, stripSpans, withoutSpans } from './mention-text';
import { scanMentionTokens } from './mention-tokens';

/**
 * Mentions in text typed by a person (M4–M12): prefix matching, agents before members,
 * agent mentions stripped from the prompt.
 */

export interface PersonMentionCandidates {
  /** In creation order (M5). */
  agents: readonly AgentCandidate[];
  /** In creation order (M5 via M10). */
  members: readonly MemberCandidate[];
}

export interface MatchedPrincipal {
  kind: 'agent' | 'member';
  id: string;
  name: string;
}

/** M5: the sender is told which principal a token reached and what else it matched. */
export interface MentionHint {
  /** As first typed, without the `@`. */
  token: string;
  chosen: MatchedPrincipal;
  others: MatchedPrincipal[];
  /** e.g. `@arch matched architect; also matched archivist`. */
  message: string;
}

export interface PersonMessageMentions {
  /** Distinct agents to start, in order of first appearance (M1, M8). */
  agents: AgentMention[];
  /** Distinct humans mentioned (M11): they start nobody. */
  members: MemberMention[];
  hints: MentionHint[];
  unresolved: UnresolvedMention[];
  /**
   * The prompt (M7, M8): the message with every resolved agent mention stripped and the
   * whitespace around them tidied. Human mentions and unresolved tokens stay as typed, so
   * the agent still reads whom the person addressed and what they wrote.
   */
  text: string;
  /**
   * M7: the message consists of resolved mentions (agents or members) and nothing else but
   * whitespace and punctuation, so it starts nobody, not even the M3 fallback.
   */
  isMentionOnly: boolean;
}

interface Resolution {
  span: MentionSpan;
  agents: AgentCandidate[];
  members: MemberCandidate[];
}

/** The `@tokens` of a person's message, with the text its code masked (`personMentionPrefixes` reads the same). */
function personSpans(text: string): { masked: string; spans: MentionSpan[] } {
  // Code is not text for people either (M16 applied to both): pasted `@Override` or
  // `@pytest.fixture` must not prefix-match an agent.
  const masked = maskCode(text, { chatFences: true });
  return { masked, spans: scanMentionTokens(text, masked, { grammar: 'person', chained: true }) };
}

/**
 * M10: a member a person's message can reach has a nickname starting with one of these (each
 * token folded as `matchCandidates` folds it, distinct): routing reads just those members, and
 * `parsePersonMessage` over them resolves exactly as over all of the workspace's members.
 */
export function personMentionPrefixes(text: string): string[] {
  const folded = personSpans(text).spans.map((span) => foldName(span.token));
  return [...new Set(folded.filter((prefix) => prefix !== ''))];
}

export function parsePersonMessage(text: string, candidates: PersonMentionCandidates): PersonMessageMentions {
  const { masked, spans } = personSpans(text);
  const resolutions = spans.map((span) => resolve(span, candidates));

  const agentHits: { agent: AgentCandidate; span: MentionSpan }[] = [];
  const memberHits: { member: MemberCandidate; span: MentionSpan }[] = [];
  const unresolvedSpans: MentionSpan[] = [];
  for (const { span, agents, members } of resolutions) {
    // M12: one @word resolves to one principal, and agents are always checked first.
    const agent = agents[0];
    const member = members[0];
    if (agent) agentHits.push({ agent, span });
    else if (member) memberHits.push({ member, span });
    else unresolvedSpans.push(span);
  }

  const strippedSpans = agentHits.map(({ agent, span }) => spanOfFullName(masked, span, agent.name));
  const resolvedSpans = [...strippedSpans, ...memberHits.map(({ span }) => span)].sort(
    (a, b) => a.start - b.start,
  );
  return {
    agents: groupInOrder(agentHits, ({ agent }) => agent.id).map(({ first, all }) => ({
      agent: first.agent,
      spans: all.map(({ span }) => span),
    })),
    members: groupInOrder(memberHits, ({ member }) => member.id).map(({ first, all }) => ({
      member: first.member,
      spans: all.map(({ span }) => span),
    })),
    hints: hintsFor(resolutions),
    unresolved: groupUnresolved(unresolvedSpans),
    text: stripSpans(text, strippedSpans),
    isMentionOnly: resolvedSpans.length > 0 && !hasSubstance(withoutSpans(text, resolvedSpans)),
  };
}

/**
 * M6 reads `@code-reviewer` as the token `code`; when that reached `code-reviewer` and the
 * person spelled out the whole name, all of it is stripped (M7) instead of leaving
 * `-reviewer` in the prompt. Only before whitespace or closing punctuation, so the wider
 * strip can never make a glued `@` free.
 */
function spanOfFullName(masked: string, span: MentionSpan, name: string): MentionSpan {
  const typed = masked.slice(span.start + 1, span.start + 1 + name.length);
  const after = masked[span.start + 1 + name.length];
  const endsCleanly = after === undefined || /[\s,.;:!?)\]}"'”’»]/u.test(after);
  // Only names spelled with token characters, so the wider span never swallows another `@`.
  const plainName = /^[\p{L}\p{M}\p{N}_.-]+$/u.test(name);
  if (!plainName || typed.length <= span.token.length || foldName(typed) !== foldName(name) || !endsCleanly) {
    return span;
  }
  return { token: span.token, start: span.start, end: span.start + 1 + name.length };
}

function resolve(span: MentionSpan, candidates: PersonMentionCandidates): Resolution {
  // M4: case-insensitive, exact name first, else prefix. M10: members by the same rule.
  return {
    span,
    agents: matchCandidates(candidates.agents, (agent) => agent.name, span.token, 'exactOrPrefix'),
    members: matchCandidates(candidates.members, (member) => member.nickname, span.token, 'exactOrPrefix'),
  };
}

/**
 * M5: one hint per distinct token that matched more than one principal. Members an agent
 * shadowed (M12) are listed too, so a person who meant to ping `@sam` learns that the agent
 * `samurai` was started instead.
 */
function hintsFor(resolutions: readonly Resolution[]): MentionHint[] {
  const hints = new Map<string, MentionHint>();
  for (const { span, agents, members } of resolutions) {
    const matched: MatchedPrincipal[] = [
      ...agents.map((agent) => ({ kind: 'agent' as const, id: agent.id, name: agent.name })),
      ...members.map((member) => ({ kind: 'member' as const, id: member.id, name: member.nickname })),
    ];
    const [chosen, ...others] = matched;
    const key = foldName(span.token);
    if (!chosen || others.length === 0 || hints.has(key)) continue;
    hints.set(key, {
      token: span.token,
      chosen,
      others,
      message: `@${span.token} matched ${describe(chosen)}; also matched ${others.map(describe).join(', ')}`,
    });
  }
  return [...hints.values()];
}

const describe = (principal: MatchedPrincipal): string =>
  principal.kind === 'member' ? `${principal.name} (member)` : principal.name;
