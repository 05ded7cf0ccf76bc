import type { GuardrailAction, GuardrailDecision } from '../model/guardrail';
import type { McpRuleSubject } from './mcp-tool-rule';

/** G2: the built-in defaults, used when no workspace, agent or space rule matches. */
export const DEFAULT_DECISIONS: Readonly<Record<GuardrailAction, GuardrailDecision>> = {
  commit: 'allow',
  push_to_remote: 'ask',
  open_pull_request: 'ask',
  tracker_write: 'allow',
  network: 'allow',
  // E4: a tool annotated read-only is allowed without a rule (`defaultDecisionFor`).
  mcp: 'ask',
};

export const defaultDecision = (action: GuardrailAction): GuardrailDecision => DEFAULT_DECISIONS[action];

/**
 * The built-in default for one call. E4: with no rule, an MCP tool annotated read-only is
 * allowed and any other asks (a tool not known to be read-only is not).
 */
export function defaultDecisionFor(action: GuardrailAction, subject?: McpRuleSubject): GuardrailDecision {
  if (action === 'mcp' && subject?.readOnly === true) return 'allow';
  return DEFAULT_DECISIONS[action];
}
