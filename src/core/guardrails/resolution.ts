import type { GuardrailAction, GuardrailDecision } from '../model/guardrail';
import type { GuardrailRuleRecord } from '../model/records';
import type { Autonomy } from '../model/space';
import type { ApprovalReach } from './fail-closed';
import type { McpRuleSubject } from './mcp-tool-rule';

/** Who is acting, and where. The names are for the explanation only; ids are shown without them. */
export interface GuardrailContext {
  workspaceId: string;
  agentId: string;
  spaceId: string | null;
  /** G2b: the space's dial; `actWithApproval` outside a space. */
  autonomy: Autonomy;
  agentName?: string;
  spaceName?: string;
}

export interface ResolveGuardrailInput {
  /** One action class, or every class of an action that spans several (G2). */
  action: GuardrailAction | readonly GuardrailAction[];
  context: GuardrailContext;
  /** The workspace's rules; rules of other agents, spaces or workspaces are ignored. */
  rules: readonly GuardrailRuleRecord[];
  /** G2a: whether an `ask` can reach someone; the richer form names what is missing. */
  canBeApproved: ApprovalReach;
  /**
   * E4: the MCP call's tool, for the `mcp` class: rules narrowed to another tool are ignored,
   * and with no rule a tool annotated read-only is allowed.
   */
  subject?: McpRuleSubject;
}

export type DecidedBy = { kind: 'rule'; rule: GuardrailRuleRecord } | { kind: 'default' };

/**
 * A matching rule that did not decide: a rule of a less specific scope (G2: specificity
 * wins even when the broader rule is more restrictive), a rule of the deciding scope naming
 * the tool less exactly (E4), or another rule of the deciding scope that was not more
 * restrictive.
 */
export interface OverriddenRule {
  rule: GuardrailRuleRecord;
  why: 'less_specific' | 'broader_tool' | 'same_scope';
}

/** How one action class resolved from the rules alone, before autonomy and fail-closed. */
export interface ClassResolution {
  action: GuardrailAction;
  decision: GuardrailDecision;
  decidedBy: DecidedBy;
  overridden: readonly OverriddenRule[];
}

export interface GuardrailResolution {
  /** The final decision the agent gets. */
  decision: GuardrailDecision;
  /** The rules' combined decision, before the autonomy dial and fail-closed. */
  ruleDecision: GuardrailDecision;
  /** What decided `ruleDecision`: the deciding class's rule, or the built-in default. */
  decidedBy: DecidedBy;
  /** The class whose resolution decided (the first, in input order, of the most restrictive). */
  decidingAction: GuardrailAction;
  perClass: readonly ClassResolution[];
  autonomy: Autonomy;
  /** True when the autonomy dial changed `ruleDecision`. */
  autonomyChanged: boolean;
  /** G2a: true when an `ask` nobody could answer became `deny`. */
  failedClosed: boolean;
  /** Human-readable lines for `summon guardrails explain`. */
  steps: readonly string[];
  /** One sentence the agent is told. */
  reason: string;
}
