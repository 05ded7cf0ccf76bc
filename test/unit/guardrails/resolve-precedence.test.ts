import { ValidationError } from '../../../src/core/errors';
import { resolveGuardrail } from '../../../src/core/guardrails';
import type { GuardrailAction, GuardrailDecision } from '../../../src/core/model/guardrail';
import type { GuardrailRuleRecord } from '../../../src/core/model/records';
import { ALICE, BACKEND, BOB, context, FRONTEND, input, rule } from './fixtures';

type Row = [string, GuardrailRuleRecord[], GuardrailDecision, 'space' | 'agent' | 'workspace' | 'default'];

const decidedScope = (rules: GuardrailRuleRecord[], action: GuardrailAction = 'push_to_remote') => {
  const r = resolveGuardrail(input({ action, rules }));
  return {
    decision: r.decision,
    scope: r.decidedBy.kind === 'rule' ? r.decidedBy.rule.scopeKind : 'default',
  };
};

describe('G2: scopes resolve by specificity, space > agent > workspace > default', () => {
  const rows: Row[] = [
    ['no rule: the built-in default (push asks)', [], 'ask', 'default'],
    [
      'workspace allow beats the default ask',
      [rule('workspace', 'push_to_remote', 'allow')],
      'allow',
      'workspace',
    ],
    [
      'workspace deny beats the default ask',
      [rule('workspace', 'push_to_remote', 'deny')],
      'deny',
      'workspace',
    ],
    [
      'a narrow agent deny beats a broad workspace allow (the old bug)',
      [rule('workspace', 'push_to_remote', 'allow'), rule(`agent:${ALICE}`, 'push_to_remote', 'deny')],
      'deny',
      'agent',
    ],
    [
      'a narrow agent allow beats a broad workspace deny',
      [rule('workspace', 'push_to_remote', 'deny'), rule(`agent:${ALICE}`, 'push_to_remote', 'allow')],
      'allow',
      'agent',
    ],
    [
      'agent ask beats workspace allow',
      [rule('workspace', 'push_to_remote', 'allow'), rule(`agent:${ALICE}`, 'push_to_remote', 'ask')],
      'ask',
      'agent',
    ],
    [
      'a space deny beats agent and workspace allows',
      [
        rule('workspace', 'push_to_remote', 'allow'),
        rule(`agent:${ALICE}`, 'push_to_remote', 'allow'),
        rule(`space:${BACKEND}`, 'push_to_remote', 'deny'),
      ],
      'deny',
      'space',
    ],
    [
      'a space allow beats agent and workspace denies',
      [
        rule('workspace', 'push_to_remote', 'deny'),
        rule(`agent:${ALICE}`, 'push_to_remote', 'deny'),
        rule(`space:${BACKEND}`, 'push_to_remote', 'allow'),
      ],
      'allow',
      'space',
    ],
    [
      'a space ask beats an agent deny',
      [rule(`agent:${ALICE}`, 'push_to_remote', 'deny'), rule(`space:${BACKEND}`, 'push_to_remote', 'ask')],
      'ask',
      'space',
    ],
    [
      'a space allow beats a workspace deny with no agent rule',
      [rule('workspace', 'push_to_remote', 'deny'), rule(`space:${BACKEND}`, 'push_to_remote', 'allow')],
      'allow',
      'space',
    ],
  ];

  it.each(rows)('G2: %s', (_name, rules, decision, scope) => {
    expect(decidedScope(rules)).toEqual({ decision, scope });
    expect(decidedScope([...rules].reverse())).toEqual({ decision, scope });
  });

  it.each<[GuardrailAction, GuardrailDecision]>([
    ['commit', 'allow'],
    ['push_to_remote', 'ask'],
    ['open_pull_request', 'ask'],
    ['tracker_write', 'allow'],
    ['network', 'allow'],
  ])('G2: built-in default for %s is %s', (action, decision) => {
    expect(decidedScope([], action)).toEqual({ decision, scope: 'default' });
  });

  it('G2: the overridden less specific rules are listed, most specific first', () => {
    const ws = rule('workspace', 'push_to_remote', 'ask');
    const agent = rule(`agent:${ALICE}`, 'push_to_remote', 'deny');
    const space = rule(`space:${BACKEND}`, 'push_to_remote', 'allow');
    const r = resolveGuardrail(input({ rules: [ws, space, agent] }));
    expect(r.decidedBy).toEqual({ kind: 'rule', rule: space });
    expect(r.perClass[0]?.overridden).toEqual([
      { rule: agent, why: 'less_specific' },
      { rule: ws, why: 'less_specific' },
    ]);
  });
});

describe('G2: most-restrictive breaks ties inside one scope only', () => {
  it.each<[string, GuardrailDecision[], GuardrailDecision]>([
    ['workspace', ['allow', 'deny'], 'deny'],
    ['workspace', ['ask', 'allow'], 'ask'],
    [`agent:${ALICE}`, ['allow', 'ask'], 'ask'],
    [`space:${BACKEND}`, ['allow', 'ask', 'deny'], 'deny'],
    [`space:${BACKEND}`, ['deny', 'allow'], 'deny'],
    [`space:${BACKEND}`, ['allow', 'allow'], 'allow'],
  ])('G2: in %s, %j resolves to %s', (scope, decisions, expected) => {
    const rules = decisions.map((d) => rule(scope, 'push_to_remote', d));
    const r = resolveGuardrail(input({ rules }));
    expect(r.decision).toBe(expected);
    expect(resolveGuardrail(input({ rules: [...rules].reverse() })).decision).toBe(expected);
    expect(r.perClass[0]?.overridden.every((o) => o.why === 'same_scope')).toBe(true);
  });

  it('G2: a tie in a broader scope never reaches past a narrower rule', () => {
    const rules = [
      rule('workspace', 'push_to_remote', 'deny'),
      rule('workspace', 'push_to_remote', 'ask'),
      rule(`agent:${ALICE}`, 'push_to_remote', 'allow'),
    ];
    expect(resolveGuardrail(input({ rules })).decision).toBe('allow');
  });
});

describe('G1: rules that do not speak about this agent, space or workspace are ignored', () => {
  it.each<[string, GuardrailRuleRecord]>([
    ['another agent', rule(`agent:${BOB}`, 'push_to_remote', 'allow')],
    ['another space', rule(`space:${FRONTEND}`, 'push_to_remote', 'allow')],
    ['another workspace', rule('workspace', 'push_to_remote', 'allow', 'w2')],
    ['another action', rule(`space:${BACKEND}`, 'commit', 'allow')],
    ['an agent rule without an agent id', rule('agent', 'push_to_remote', 'allow')],
    ['a space rule without a space id', rule('space', 'push_to_remote', 'allow')],
  ])('G1: a rule of %s does not match', (_name, r) => {
    const resolved = resolveGuardrail(input({ rules: [r] }));
    expect(resolved.decision).toBe('ask');
    expect(resolved.decidedBy).toEqual({ kind: 'default' });
  });

  it('G1: outside any space, space rules are ignored and the agent rule decides', () => {
    const rules = [
      rule(`space:${BACKEND}`, 'push_to_remote', 'deny'),
      rule(`agent:${ALICE}`, 'push_to_remote', 'allow'),
    ];
    const r = resolveGuardrail(input({ rules, context: context({ spaceId: null }) }));
    expect(r.decision).toBe('allow');
  });
});

describe('G2: an action spanning several classes combines them most-restrictive', () => {
  it('G2: commit (allow) + push (ask by default) asks, decided by push', () => {
    const r = resolveGuardrail(input({ action: ['commit', 'push_to_remote'] }));
    expect(r.decision).toBe('ask');
    expect(r.decidingAction).toBe('push_to_remote');
    expect(r.perClass.map((c) => [c.action, c.decision])).toEqual([
      ['commit', 'allow'],
      ['push_to_remote', 'ask'],
    ]);
  });

  it('G2: each class resolves by its own specificity before combining', () => {
    const commitDeny = rule('workspace', 'commit', 'deny');
    const rules = [commitDeny, rule(`space:${BACKEND}`, 'push_to_remote', 'allow')];
    const r = resolveGuardrail(input({ action: ['push_to_remote', 'commit'], rules }));
    expect(r.decision).toBe('deny');
    expect(r.decidingAction).toBe('commit');
    expect(r.decidedBy).toEqual({ kind: 'rule', rule: commitDeny });
  });

  it('G2: every class allowed allows; the first of equally restrictive classes is named', () => {
    const rules = [rule('workspace', 'push_to_remote', 'allow')];
    const r = resolveGuardrail(input({ action: ['network', 'commit', 'push_to_remote'], rules }));
    expect(r.decision).toBe('allow');
    expect(r.decidingAction).toBe('network');
  });

  it('G2: a class listed twice is resolved once', () => {
    expect(resolveGuardrail(input({ action: ['commit', 'commit'] })).perClass).toHaveLength(1);
  });

  it('rejects an empty class list and an unknown class', () => {
    expect(() => resolveGuardrail(input({ action: [] }))).toThrow(ValidationError);
    const bogus = ['force_push'] as unknown as GuardrailAction[];
    expect(() => resolveGuardrail(input({ action: bogus }))).toThrow(/Unknown guardrail action "force_push"/);
  });
});
