import type { GuardrailContext, ResolveGuardrailInput } from '../../../src/core/guardrails';
import type {
  GuardrailAction,
  GuardrailDecision,
  GuardrailScopeKind,
} from '../../../src/core/model/guardrail';
import type { GuardrailRuleRecord } from '../../../src/core/model/records';

export const WORKSPACE = 'w1';
export const ALICE = 'a-alice';
export const BOB = 'a-bob';
export const BACKEND = 's-backend';
export const FRONTEND = 's-frontend';

let seq = 0;

/** `rule('space:s-backend', 'push_to_remote', 'deny')`; the scope id goes after the colon. */
export function rule(
  scope: string,
  action: GuardrailAction,
  decision: GuardrailDecision,
  workspaceId: string = WORKSPACE,
  tool: string | null = null,
): GuardrailRuleRecord {
  const [kind, id] = scope.split(':') as [GuardrailScopeKind, string | undefined];
  seq += 1;
  return { id: `r${seq}`, workspaceId, scopeKind: kind, scopeId: id ?? null, action, decision, tool };
}

/** E4: `mcpRule('space:s-backend', 'deny', 'linear__*')`: an `mcp` rule narrowed to a tool (or not). */
export const mcpRule = (scope: string, decision: GuardrailDecision, tool: string | null = null) =>
  rule(scope, 'mcp', decision, WORKSPACE, tool);

export const context = (over: Partial<GuardrailContext> = {}): GuardrailContext => ({
  workspaceId: WORKSPACE,
  agentId: ALICE,
  spaceId: BACKEND,
  autonomy: 'actWithApproval',
  ...over,
});

export const input = (over: Partial<ResolveGuardrailInput> = {}): ResolveGuardrailInput => ({
  action: 'push_to_remote',
  context: context(),
  rules: [],
  canBeApproved: true,
  ...over,
});
