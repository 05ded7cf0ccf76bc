import fc from 'fast-check';
import {
  type ApprovalReach,
  type GuardrailContext,
  type ResolveGuardrailInput,
  resolveGuardrail,
  restrictiveness,
} from '../../../src/core/guardrails';
import {
  GUARDRAIL_ACTIONS,
  GUARDRAIL_DECISIONS,
  GUARDRAIL_SCOPE_KINDS,
} from '../../../src/core/model/guardrail';
import type { GuardrailRuleRecord } from '../../../src/core/model/records';
import { AUTONOMY_LEVELS, type Autonomy } from '../../../src/core/model/space';

const ruleArb: fc.Arbitrary<GuardrailRuleRecord> = fc.record({
  id: fc.uuid(),
  workspaceId: fc.constantFrom('w1', 'w2'),
  scopeKind: fc.constantFrom(...GUARDRAIL_SCOPE_KINDS),
  scopeId: fc.constantFrom(null, 'a-alice', 'a-bob', 's-backend', 's-frontend'),
  action: fc.constantFrom(...GUARDRAIL_ACTIONS),
  decision: fc.constantFrom(...GUARDRAIL_DECISIONS),
  tool: fc.constant(null),
});

const contextArb: fc.Arbitrary<GuardrailContext> = fc.record({
  workspaceId: fc.constant('w1'),
  agentId: fc.constantFrom('a-alice', 'a-bob'),
  spaceId: fc.constantFrom(null, 's-backend', 's-frontend'),
  autonomy: fc.constantFrom(...AUTONOMY_LEVELS),
});

const reachArb: fc.Arbitrary<ApprovalReach> = fc.oneof(
  fc.boolean(),
  fc.record({ approverCount: fc.integer({ min: 0, max: 3 }), hasBoundChannel: fc.boolean() }),
);

const inputArb: fc.Arbitrary<ResolveGuardrailInput & { rules: GuardrailRuleRecord[] }> = fc.record({
  action: fc.subarray([...GUARDRAIL_ACTIONS], { minLength: 1 }),
  context: contextArb,
  rules: fc.array(ruleArb, { maxLength: 12 }),
  canBeApproved: reachArb,
});

const at = (input: ResolveGuardrailInput, autonomy: Autonomy) =>
  resolveGuardrail({ ...input, context: { ...input.context, autonomy } });

describe('guardrail resolution properties', () => {
  it('a result is always one of the three decisions, explained, ending with the decision', () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        const r = resolveGuardrail(input);
        expect(GUARDRAIL_DECISIONS).toContain(r.decision);
        expect(r.reason.length).toBeGreaterThan(0);
        expect(r.steps.at(-1)).toBe(`Decision: ${r.decision}.`);
      }),
    );
  });

  it('G2b: nothing is less restrictive than proposeOnly allows (it denies all), and the dial is monotone', () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        const propose = at(input, 'proposeOnly').decision;
        const approval = at(input, 'actWithApproval').decision;
        const freely = at(input, 'actFreely').decision;
        expect(propose).toBe('deny');
        expect(restrictiveness(propose)).toBeGreaterThanOrEqual(restrictiveness(approval));
        expect(restrictiveness(approval)).toBeGreaterThanOrEqual(restrictiveness(freely));
      }),
    );
  });

  it('G2b: actFreely never yields ask, and keeps every explicit deny', () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        const r = at(input, 'actFreely');
        expect(r.decision).not.toBe('ask');
        expect(r.decision === 'deny').toBe(r.ruleDecision === 'deny');
      }),
    );
  });

  it('G2a: an ask is only ever returned when it can be answered', () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        const r = resolveGuardrail(input);
        if (r.decision === 'ask') expect(r.failedClosed).toBe(false);
        if (input.canBeApproved === false) expect(r.decision).not.toBe('ask');
      }),
    );
  });

  it('G2: the order of the rules never changes the outcome', () => {
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
          const b = resolveGuardrail({ ...input, rules: shuffled });
          expect(b.decision).toBe(a.decision);
          expect(b.perClass.map((c) => c.decision)).toEqual(a.perClass.map((c) => c.decision));
        },
      ),
    );
  });

  it('G2: the combined rule decision is the most restrictive class, and no class is weaker than a matching rule of a narrower scope allows', () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        const r = resolveGuardrail(input);
        const max = Math.max(...r.perClass.map((c) => restrictiveness(c.decision)));
        expect(restrictiveness(r.ruleDecision)).toBe(max);
        for (const c of r.perClass) {
          if (c.decidedBy.kind === 'default') {
            expect(c.overridden).toEqual([]);
            continue;
          }
          const winner = c.decidedBy.rule;
          const rank = (kind: string) => ['space', 'agent', 'workspace'].indexOf(kind);
          for (const o of c.overridden) {
            expect(rank(o.rule.scopeKind)).toBeGreaterThanOrEqual(rank(winner.scopeKind));
            if (o.why === 'same_scope')
              expect(restrictiveness(o.rule.decision)).toBeLessThanOrEqual(restrictiveness(c.decision));
          }
        }
      }),
    );
  });
});
