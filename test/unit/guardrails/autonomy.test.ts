import { applyAutonomy, resolveGuardrail } from '../../../src/core/guardrails';
import type { GuardrailDecision } from '../../../src/core/model/guardrail';
import type { Autonomy } from '../../../src/core/model/space';
import { context, input, rule } from './fixtures';

describe('G2b: the autonomy dial', () => {
  it.each<[Autonomy, GuardrailDecision, GuardrailDecision]>([
    ['proposeOnly', 'allow', 'deny'],
    ['proposeOnly', 'ask', 'deny'],
    ['proposeOnly', 'deny', 'deny'],
    ['actWithApproval', 'allow', 'allow'],
    ['actWithApproval', 'ask', 'ask'],
    ['actWithApproval', 'deny', 'deny'],
    ['actFreely', 'allow', 'allow'],
    ['actFreely', 'ask', 'allow'],
    ['actFreely', 'deny', 'deny'],
  ])('G2b: %s turns %s into %s', (autonomy, ruled, expected) => {
    expect(applyAutonomy(ruled, autonomy)).toBe(expected);
    const rules = [rule('workspace', 'push_to_remote', ruled)];
    const r = resolveGuardrail(input({ rules, context: context({ autonomy }) }));
    expect(r.ruleDecision).toBe(ruled);
    expect(r.decision).toBe(expected);
    expect(r.autonomyChanged).toBe(ruled !== expected);
  });

  it('G2b: proposeOnly denies even an action every rule allows, and says the agent may still reply', () => {
    const r = resolveGuardrail(input({ action: 'commit', context: context({ autonomy: 'proposeOnly' }) }));
    expect(r.decision).toBe('deny');
    expect(r.reason).toBe(
      "commit is denied: this space's autonomy is proposeOnly, so every gated action is denied; you may still reply, for example with a proposal.",
    );
  });

  it('G2b: actFreely allows a default ask without needing any approver', () => {
    const r = resolveGuardrail(input({ context: context({ autonomy: 'actFreely' }), canBeApproved: false }));
    expect(r.decision).toBe('allow');
    expect(r.failedClosed).toBe(false);
    expect(r.reason).toBe(
      "push_to_remote is allowed: this space's autonomy is actFreely, so an ask (the built-in default push_to_remote = ask) needs no approval.",
    );
  });

  it('G2b: under actFreely only an explicit deny survives', () => {
    const rules = [rule('workspace', 'push_to_remote', 'deny')];
    const r = resolveGuardrail(input({ rules, context: context({ autonomy: 'actFreely', spaceId: null }) }));
    expect(r.decision).toBe('deny');
    expect(r.reason).toBe(
      'push_to_remote is denied by rule workspace push_to_remote = deny; an explicit deny holds even when autonomy is actFreely.',
    );
  });

  it('G2b: proposeOnly wins over a nobody-can-approve ask without calling it a fail-closed', () => {
    const r = resolveGuardrail(
      input({ context: context({ autonomy: 'proposeOnly' }), canBeApproved: false }),
    );
    expect(r.decision).toBe('deny');
    expect(r.failedClosed).toBe(false);
  });
});
