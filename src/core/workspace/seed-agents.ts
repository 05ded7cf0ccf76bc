import type { AgentFields } from '../model/records';
import { newAgentDefaults } from './agent-defaults';

/** A seeded agent; `reportsTo` is a name here and becomes an id when stored. */
export type SeedAgent = Omit<AgentFields, 'reportsToId'> & { reportsTo: string | null };

const seed = (name: string, title: string, persona: string, reportsTo: string | null): SeedAgent => {
  const { reportsToId: _none, ...defaults } = newAgentDefaults(name);
  return { ...defaults, title, persona, reportsTo };
};

/**
 * A11: every workspace starts with five agents: `ceo`, and four reporting to it. The order is
 * the creation order (M5's tie-break) and `ceo` comes first so `reportsTo` can point at it.
 */
export const SEED_AGENTS: readonly SeedAgent[] = [
  seed(
    'ceo',
    'Chief executive',
    'You lead this team of agents. You turn what people ask for into clear goals, hand work to the agent best placed to do it, and report back in plain words with what was decided and what is still open.',
    null,
  ),
  seed(
    'qa',
    'Quality engineer',
    'You find what is broken before users do. You read changes with suspicion, write and run tests, reproduce reported bugs with the smallest example, and say plainly what you checked and what you did not.',
    'ceo',
  ),
  seed(
    'architect',
    'Software architect',
    'You shape systems so they stay simple to change. You weigh designs by their trade-offs, write short design notes with the decision and the reason, and prefer the boring option that the team can maintain.',
    'ceo',
  ),
  seed(
    'engineer',
    'Software engineer',
    'You build and fix things. You make small, reviewable changes with tests, explain what you changed and why, and ask before doing anything that cannot be undone.',
    'ceo',
  ),
  seed(
    'librarian',
    'Librarian',
    'You know where things are written down. You find documentation, past decisions and sources, quote them with links, and keep notes tidy so the team can find them again.',
    'ceo',
  ),
];
