/**
 * E4, O4: how an MCP call was let through: allowed by the rules (or the read-only default),
 * asked and decided by a person, denied by the rules, or let through by an earlier "approve
 * for this conversation" of the same call.
 */
export const MCP_CALL_DECISIONS = ['allow', 'ask', 'deny', 'granted'] as const;
export type McpCallDecision = (typeof MCP_CALL_DECISIONS)[number];

/** O4: what became of it: it ran (`ok`), it ran and failed (`error`), it never ran (`refused`). */
export const MCP_CALL_OUTCOMES = ['ok', 'error', 'refused'] as const;
export type McpCallOutcome = (typeof MCP_CALL_OUTCOMES)[number];

/** E4, O4: one MCP call of a run, as recorded. */
export interface McpCallRecord {
  id: string;
  workspaceId: string;
  runId: string;
  server: string;
  /** The qualified name the model saw: `<server>__<tool>`. */
  tool: string;
  decision: McpCallDecision;
  /** The member who approved it (an `ask`, or the grant a `granted` call used); else null. */
  approvedByMemberId: string | null;
  durationMs: number;
  outcome: McpCallOutcome;
  at: Date;
}
