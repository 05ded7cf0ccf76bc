import type { McpCallDecision } from '../model/mcp/mcp-call-record';

/** E4, O4: how an MCP call was let through or refused, and who approved it, for its record. */
export interface McpGuardVerdict {
  decision: McpCallDecision;
  approvedByMemberId: string | null;
}

/**
 * A guardrail decision on one call or host (G1, G2, X2): allowed, or refused with the sentence.
 * E4: a call with an MCP subject also says how it was decided (`verdict`).
 */
export type ToolAuthorization =
  | { allowed: true; verdict?: McpGuardVerdict }
  | { allowed: false; reason: string; verdict?: McpGuardVerdict };
