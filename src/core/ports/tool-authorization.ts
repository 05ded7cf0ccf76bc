/** A guardrail decision on one call or host (G1, G2, X2): allowed, or refused with the sentence. */
export type ToolAuthorization = { allowed: true } | { allowed: false; reason: string };
