/** R2: `agent@relay` names an agent of a paired relay; a plain name is an agent of this one. */
export interface AgentAddress {
  agent: string;
  /** Null for this relay. */
  relay: string | null;
}

/** `qa@build-box` → qa on build-box; `@qa` → qa here; an explicit `relay` argument wins. */
export function parseAgentAddress(input: string, relay?: string): AgentAddress {
  const trimmed = input.trim().replace(/^@/, '');
  const at = trimmed.lastIndexOf('@');
  const named = relay?.trim() ? relay.trim() : null;
  if (at <= 0 || at === trimmed.length - 1) return { agent: trimmed, relay: named };
  return { agent: trimmed.slice(0, at), relay: named ?? trimmed.slice(at + 1) };
}

/** M20: an agent in a chain that crosses relays: `agent@relay`, compared case-insensitively. */
export function qualifiedName(agent: string, relay: string): string {
  return `${agent}@${relay}`.toLowerCase();
}
