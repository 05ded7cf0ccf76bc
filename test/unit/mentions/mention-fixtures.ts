import type { AgentCandidate, MemberCandidate } from '../../../src/core/mentions';

/** Builds agents in creation order (M5's tie-break), ids derived from names. */
export const agentsNamed = (...names: string[]): AgentCandidate[] =>
  names.map((name) => ({ id: `agent-${name}`, name }));

export const membersNamed = (...nicknames: string[]): MemberCandidate[] =>
  nicknames.map((nickname) => ({ id: `member-${nickname}`, nickname }));

/** A11: the five agents every workspace starts with, in creation order. */
export const SEEDED_AGENTS = agentsNamed('ceo', 'qa', 'architect', 'engineer', 'librarian');

/** A richer workspace used where several rules meet. */
export const AGENTS = agentsNamed('ceo', 'alice', 'bob', 'architect', 'archivist', 'code-reviewer', 'code');
export const MEMBERS = membersNamed('sam', 'sara', 'jiří');

export const names = (mentions: readonly { agent: AgentCandidate }[]): string[] =>
  mentions.map(({ agent }) => agent.name);
