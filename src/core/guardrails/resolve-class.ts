import type { GuardrailAction, GuardrailScopeKind } from '../model/guardrail';
import type { GuardrailRuleRecord } from '../model/records';
import { mostRestrictive } from './decision-order';
import { defaultDecision } from './default-decisions';
import type { ClassResolution, GuardrailContext, OverriddenRule } from './resolution';

/** G2: most specific first. The built-in default comes after all three. */
export const SCOPE_SPECIFICITY: readonly GuardrailScopeKind[] = ['space', 'agent', 'workspace'];

/** Whether a rule speaks about this workspace, this agent, or this space. */
export function ruleApplies(rule: GuardrailRuleRecord, context: GuardrailContext): boolean {
  if (rule.workspaceId !== context.workspaceId) return false;
  switch (rule.scopeKind) {
    case 'workspace':
      return true;
    case 'agent':
      return rule.scopeId === context.agentId;
    case 'space':
      return context.spaceId !== null && rule.scopeId === context.spaceId;
  }
}

/**
 * G2: one action class. The most specific scope with a matching rule decides, even when a
 * broader rule is more restrictive (the old flat precedence let a broad allow silently
 * defeat a narrow deny; specificity fixes that in both directions). Most-restrictive only
 * breaks ties inside that one scope.
 */
export function resolveClass(
  action: GuardrailAction,
  context: GuardrailContext,
  rules: readonly GuardrailRuleRecord[],
): ClassResolution {
  const matching = rules.filter((rule) => rule.action === action && ruleApplies(rule, context));
  for (const kind of SCOPE_SPECIFICITY) {
    const inScope = matching.filter((rule) => rule.scopeKind === kind);
    const [first, ...rest] = inScope;
    if (first === undefined) continue;
    const decision = mostRestrictive(first.decision, ...rest.map((rule) => rule.decision));
    const winner = inScope.find((rule) => rule.decision === decision) ?? first;
    const overridden: OverriddenRule[] = [
      ...inScope.filter((rule) => rule !== winner).map((rule) => ({ rule, why: 'same_scope' as const })),
      ...bySpecificity(matching.filter((rule) => rule.scopeKind !== kind)).map((rule) => ({
        rule,
        why: 'less_specific' as const,
      })),
    ];
    return { action, decision, decidedBy: { kind: 'rule', rule: winner }, overridden };
  }
  return { action, decision: defaultDecision(action), decidedBy: { kind: 'default' }, overridden: [] };
}

function bySpecificity(rules: readonly GuardrailRuleRecord[]): GuardrailRuleRecord[] {
  return SCOPE_SPECIFICITY.flatMap((kind) => rules.filter((rule) => rule.scopeKind === kind));
}
