import type { MentionedAgent } from '../../../src/core/wake';

/** The five seeded agents (A11), with ids unlike their names so messages prove the lookup. */
export const ceo: MentionedAgent = { agentId: 'a-ceo', name: 'ceo' };
export const engineer: MentionedAgent = { agentId: 'a-engineer', name: 'engineer' };
export const architect: MentionedAgent = { agentId: 'a-architect', name: 'architect' };
export const qa: MentionedAgent = { agentId: 'a-qa', name: 'qa' };
export const librarian: MentionedAgent = { agentId: 'a-librarian', name: 'librarian' };

export const ALL = [ceo, engineer, architect, qa, librarian];

export function nameOf(agentId: string): string | undefined {
  return ALL.find((agent) => agent.agentId === agentId)?.name;
}
