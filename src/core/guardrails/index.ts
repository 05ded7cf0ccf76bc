/** Action guardrails (G1–G2b) and approvals (G4): pure decisions, no I/O. */
export type {
  Approval,
  ApprovalDecider,
  ApprovalOutcome,
  ApprovalVerdict,
} from '../model/approvals/approval';
export type {
  ApprovalAuditEntry,
  ApprovalDecisionResult,
  ApprovalRefusalCode,
  DecideApprovalOptions,
} from './approval-decision';
export { decideApproval } from './approval-decision';
export {
  approvalExpiry,
  approvalOutcome,
  DEFAULT_APPROVAL_TTL_MS,
  expireIfDue,
  isDue,
  openApproval,
} from './approval-expiry';
export { applyAutonomy } from './autonomy';
export { mostRestrictive, restrictiveness } from './decision-order';
export { DEFAULT_DECISIONS, defaultDecision, defaultDecisionFor } from './default-decisions';
export { ruleLabel } from './explain';
export type { ApprovalReach } from './fail-closed';
export { approvalBlocker } from './fail-closed';
export type { McpRuleSubject } from './mcp-tool-rule';
export {
  MCP_TOOL_RULE_PATTERN,
  MCP_TOOL_RULE_USAGE,
  toolRuleProblem,
  toolSpecificity,
} from './mcp-tool-rule';
export type {
  ClassResolution,
  DecidedBy,
  GuardrailContext,
  GuardrailResolution,
  OverriddenRule,
  ResolveGuardrailInput,
} from './resolution';
export { resolveClass, ruleApplies, SCOPE_SPECIFICITY } from './resolve-class';
export { resolveGuardrail } from './resolve-guardrail';
export type { ParseScopeResult, ScopeKey } from './scope-key';
export { formatScope, parseScope, scopeKey } from './scope-key';
