/** G1: the gated actions and the three decisions. */
export const GUARDRAIL_ACTIONS = [
  'commit',
  'push_to_remote',
  'open_pull_request',
  'tracker_write',
  'network',
  /** E4: a call to a tool of a declared MCP server (a rule may narrow it with `tool`). */
  'mcp',
] as const;
export type GuardrailAction = (typeof GUARDRAIL_ACTIONS)[number];

export const GUARDRAIL_DECISIONS = ['allow', 'ask', 'deny'] as const;
export type GuardrailDecision = (typeof GUARDRAIL_DECISIONS)[number];

/** G1: a rule is scoped to the workspace, one agent, or one space. */
export const GUARDRAIL_SCOPE_KINDS = ['workspace', 'agent', 'space'] as const;
export type GuardrailScopeKind = (typeof GUARDRAIL_SCOPE_KINDS)[number];

export const APPROVAL_STATUSES = ['pending', 'approved', 'denied', 'expired'] as const;
export type ApprovalStatus = (typeof APPROVAL_STATUSES)[number];
