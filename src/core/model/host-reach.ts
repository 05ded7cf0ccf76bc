/** X2: what the egress proxy does with one host. */
export type HostVerdict = { kind: 'pass' } | { kind: 'ask' } | { kind: 'refuse'; reason: string };

/** X2: can the run's commands reach any host at all? When not, why (the sentence a refusal shows). */
export type RunReach = { reachable: true } | { reachable: false; reason: string };
