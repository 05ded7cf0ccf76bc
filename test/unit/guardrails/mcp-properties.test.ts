import fc from 'fast-check';
import {
  type GuardrailContext,
  type McpRuleSubject,
  mostRestrictive,
  type ResolveGuardrailInput,
  resolveGuardrail,
} from '../../../src/core/guardrails';
import {
  GUARDRAIL_DECISIONS,
  GUARDRAIL_SCOPE_KINDS,
  type GuardrailDecision,
} from '../../../src/core/model/guardrail';
import type { GuardrailRuleRecord } from '../../../src/core/model/records';

const TOOLS = ['linear__create_issue', 'linear__list_issues', 'github__create_pr'] as const;
const RULE_TOOLS = [null, 'linear__*', 'github__*', ...TOOLS] as const;

const mcpRuleArb: fc.Arbitrary<GuardrailRuleRecord> = fc.record({
  id: fc.uuid(),
  workspaceId: fc.constantFrom('w1', 'w2'),
  scopeKind: fc.constantFrom(...GUARDRAIL_SCOPE_KINDS),
  scopeId: fc.constantFrom(null, 'a-alice', 'a-bob', 's-backend', 's-frontend'),
  action: fc.constant('mcp' as const),
  decision: fc.constantFrom(...GUARDRAIL_DECISIONS),
  tool: fc.constantFrom(...RULE_TOOLS),
});

const contextArb: fc.Arbitrary<GuardrailContext> = fc.record({
  workspaceId: fc.constant('w1'),
  agentId: fc.constantFrom('a-alice', 'a-bob'),
  spaceId: fc.constantFrom(null, 's-backend', 's-frontend'),
  autonomy: fc.constant('actWithApproval' as const),
});

const subjectArb: fc.Arbitrary<McpRuleSubject> = fc.record({
  tool: fc.constantFrom(...TOOLS),
  readOnly: fc.boolean(),
});

const inputArb: fc.Arbitrary<
  ResolveGuardrailInput & { rules: GuardrailRuleRecord[]; subject: McpRuleSubject }
> = fc.record({
  action: fc.constant('mcp' as const),
  context: contextArb,
  rules: fc.array(mcpRuleArb, { maxLength: 14 }),
  canBeApproved: fc.constant(true),
  subject: subjectArb,
});

const SCOPES = ['space', 'agent', 'workspace'] as const;

const applies = (rule: GuardrailRuleRecord, context: GuardrailContext): boolean =>
  rule.workspaceId === context.workspaceId &&
  (rule.scopeKind === 'workspace' ||
    (rule.scopeKind === 'agent' && rule.scopeId === context.agentId) ||
    (rule.scopeKind === 'space' && context.spaceId !== null && rule.scopeId === context.spaceId));

/** How exactly a rule names the tool, as docs/rules.md E4 says it: the tool, its server, every tool. */
const exactness = (rule: GuardrailRuleRecord, tool: string): number | null => {
  if (rule.tool === null) return 0;
  if (rule.tool === tool) return 2;
  const server = tool.slice(0, tool.indexOf('__'));
  return rule.tool === `${server}__*` ? 1 : null;
};

/** The documented order, written independently: scope first, then the tool's exactness, then most restrictive. */
function expected(input: ResolveGuardrailInput & { subject: McpRuleSubject }): GuardrailDecision {
  const { context, subject } = input;
  const matching = input.rules.filter((r) => applies(r, context) && exactness(r, subject.tool) !== null);
  for (const scope of SCOPES) {
    const inScope = matching.filter((r) => r.scopeKind === scope);
    if (inScope.length === 0) continue;
    const best = Math.max(...inScope.map((r) => exactness(r, subject.tool) ?? 0));
    const [first, ...rest] = inScope
      .filter((r) => exactness(r, subject.tool) === best)
      .map((r) => r.decision);
    if (first !== undefined) return mostRestrictive(first, ...rest);
  }
  return subject.readOnly ? 'allow' : 'ask';
}

describe('E4: mcp rules narrowed to a tool, properties', () => {
  it('E4, G2: scope first, then the tool named most exactly, then the most restrictive; no rule: read-only allows, else ask', () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        expect(resolveGuardrail(input).decision).toBe(expected(input));
      }),
      { numRuns: 500 },
    );
  });

  it('E4: a rule naming another tool (or another server) never changes the decision', () => {
    fc.assert(
      fc.property(inputArb, fc.array(mcpRuleArb, { maxLength: 6 }), (input, extra) => {
        const others = extra.filter((r) => r.tool !== null && exactness(r, input.subject.tool) === null);
        const with_ = resolveGuardrail({ ...input, rules: [...input.rules, ...others] });
        expect(with_.decision).toBe(resolveGuardrail(input).decision);
      }),
    );
  });

  it('E4: a rule naming the tool in the most specific scope that has any matching rule decides alone', () => {
    fc.assert(
      fc.property(inputArb, fc.constantFrom(...GUARDRAIL_DECISIONS), (input, decision) => {
        const own: GuardrailRuleRecord = {
          id: 'own',
          workspaceId: 'w1',
          scopeKind: 'space',
          scopeId: input.context.spaceId,
          action: 'mcp',
          decision,
          tool: input.subject.tool,
        };
        if (input.context.spaceId === null) return;
        // Without another rule naming the tool in the space, the space's exact rule decides.
        const rules = input.rules.filter((r) => !(r.scopeKind === 'space' && r.tool === input.subject.tool));
        const r = resolveGuardrail({ ...input, rules: [...rules, own] });
        expect(r.decision).toBe(decision);
        expect(r.decidedBy).toEqual({ kind: 'rule', rule: own });
      }),
    );
  });

  it('E4: the order of the rules never changes the outcome, and overridden rules never name the tool more exactly than the winner in its scope', () => {
    fc.assert(
      fc.property(
        inputArb.chain((input) =>
          fc.tuple(
            fc.constant(input),
            fc.shuffledSubarray(input.rules, {
              minLength: input.rules.length,
              maxLength: input.rules.length,
            }),
          ),
        ),
        ([input, shuffled]) => {
          const a = resolveGuardrail(input);
          expect(resolveGuardrail({ ...input, rules: shuffled }).decision).toBe(a.decision);
          const [mcp] = a.perClass;
          if (mcp === undefined || mcp.decidedBy.kind !== 'rule') return;
          const winner = mcp.decidedBy.rule;
          for (const o of mcp.overridden) {
            if (o.rule.scopeKind !== winner.scopeKind) continue;
            expect(exactness(o.rule, input.subject.tool)).toBeLessThanOrEqual(
              exactness(winner, input.subject.tool) ?? 0,
            );
          }
        },
      ),
    );
  });
});
