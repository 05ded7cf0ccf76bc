/**
 * The mentions of an agent's reply, as the wake planner needs them. Deliberately smaller
 * than the mention parser's result so the two can be connected by a plain mapping:
 * unresolved names are not part of it, because they post nothing (M21).
 */
export interface MentionedAgent {
  agentId: string;
  name: string;
}

export interface ReplyMentions {
  /** Agents named by their exact name (M15), in order of first appearance. */
  agents: readonly MentionedAgent[];
  /** M15: names that matched more than one agent and so reach nobody. */
  ambiguous: readonly string[];
}

/**
 * M22: the author is never woken by its own reply. M19 counts distinct agents, so an
 * agent named twice counts once. Order of first appearance is kept.
 */
export function distinctOthers(agents: readonly MentionedAgent[], selfId: string): MentionedAgent[] {
  const seen = new Set<string>([selfId]);
  const result: MentionedAgent[] = [];
  for (const agent of agents) {
    if (seen.has(agent.agentId)) continue;
    seen.add(agent.agentId);
    result.push(agent);
  }
  return result;
}

/** Ambiguous names, once each (case-insensitively), blanks dropped. */
export function distinctNames(names: readonly string[]): string[] {
  const seen = new Set<string>();
  const result: string[] = [];
  for (const name of names) {
    const key = name.trim().toLowerCase();
    if (key === '' || seen.has(key)) continue;
    seen.add(key);
    result.push(name.trim());
  }
  return result;
}
