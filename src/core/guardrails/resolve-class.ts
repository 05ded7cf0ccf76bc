import type { GuardrailAction, GuardrailScopeKind } from '../model/guardrail';
import type { GuardrailRuleRecord } from '../model/records';
import { mostRestrictive } from './decision-order';
import { defaultDecisionFor } from './default-decisions';
import { type McpRuleSubject, toolSpecificity } from './mcp-tool-rule';
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
 * defeat a narrow deny; specificity fixes that in both directions). E4: inside that scope,
 * the rule naming the tool most exactly decides (the tool, then its server's wildcard, then
 * every tool); a rule naming another tool is ignored. Most-restrictive only breaks ties
 * among the rules left.
 */
export function resolveClass(
  action: GuardrailAction,
  context: GuardrailContext,
  rules: readonly GuardrailRuleRecord[],
  subject?: McpRuleSubject,
): ClassResolution {
  const matching = rules.filter(
    (rule) =>
      rule.action === action &&
      ruleApplies(rule, context) &&
      toolSpecificity(rule.tool ?? null, subject) !== null,
  );
  const exactness = (rule: GuardrailRuleRecord) => toolSpecificity(rule.tool ?? null, subject) ?? 0;
  for (const kind of SCOPE_SPECIFICITY) {
    const inScope = matching.filter((rule) => rule.scopeKind === kind);
    if (inScope.length === 0) continue;
    const best = Math.max(...inScope.map(exactness));
    const [first, ...rest] = inScope.filter((rule) => exactness(rule) === best);
    if (first === undefined) continue;
    const decision = mostRestrictive(first.decision, ...rest.map((rule) => rule.decision));
    const winner = [first, ...rest].find((rule) => rule.decision === decision) ?? first;
    const overridden: OverriddenRule[] = [
      ...inScope
        .filter((rule) => rule !== winner && exactness(rule) === best)
        .map((rule) => ({ rule, why: 'same_scope' as const })),
      ...inScope
        .filter((rule) => exactness(rule) < best)
        .sort((a, b) => exactness(b) - exactness(a))
        .map((rule) => ({ rule, why: 'broader_tool' as const })),
      ...bySpecificity(matching.filter((rule) => rule.scopeKind !== kind)).map((rule) => ({
        rule,
        why: 'less_specific' as const,
      })),
    ];
    return { action, decision, decidedBy: { kind: 'rule', rule: winner }, overridden };
  }
  return {
    action,
    decision: defaultDecisionFor(action, subject),
    decidedBy: { kind: 'default' },
    overridden: [],
  };
}

function bySpecificity(rules: readonly GuardrailRuleRecord[]): GuardrailRuleRecord[] {
  return SCOPE_SPECIFICITY.flatMap((kind) => rules.filter((rule) => rule.scopeKind === kind));
}
