/**
 * M20: the wake chain of a run is the agent ids that led to it, oldest first, ending with
 * the run's own agent. A run woken by a reply gets the replying run's chain plus itself.
 */
export function chainOfReplier(chain: readonly string[], replierId: string): string[] {
  // The chain should already end with the replier; a chain that does not is completed
  // rather than trusted, so the replier can never be woken back by its own wakes.
  return chain.at(-1) === replierId ? [...chain] : [...chain, replierId];
}

export function extendChain(chain: readonly string[], agentId: string): string[] {
  return [...chain, agentId];
}

/** `ceo → engineer → architect`, with names where they are known and ids otherwise. */
export function describeChain(chain: readonly string[], nameOf: (agentId: string) => string): string {
  return chain.map(nameOf).join(' → ');
}
