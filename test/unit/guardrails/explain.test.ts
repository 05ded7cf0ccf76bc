import { resolveGuardrail } from '../../../src/core/guardrails';
import { ALICE, BACKEND, context, input, rule } from './fixtures';

const named = (over: Parameters<typeof context>[0] = {}) =>
  context({ agentName: 'alice', spaceName: 'backend', ...over });

describe('G2: `summon guardrails explain` shows which rule decided, and why', () => {
  it('G2: a narrow allow over broader rules, then an approval card', () => {
    const rules = [
      rule('workspace', 'push_to_remote', 'deny'),
      rule(`agent:${ALICE}`, 'push_to_remote', 'allow'),
      rule(`space:${BACKEND}`, 'push_to_remote', 'ask'),
    ];
    const r = resolveGuardrail(input({ rules, context: named() }));
    expect(r.steps).toMatchInlineSnapshot(`
[
  "Action: push_to_remote by agent alice in space backend (autonomy actWithApproval).",
  "push_to_remote: space:backend push_to_remote = ask decides (the most specific scope with a matching rule).",
  "  Overrides the less specific agent:alice push_to_remote = allow.",
  "  Overrides the less specific workspace push_to_remote = deny.",
  "Autonomy actWithApproval: the rules apply as resolved.",
  "Approval: a card is posted in the conversation; an owner, admin or approver decides, and an unanswered approval expires as denied.",
  "Decision: ask.",
]
`);
    expect(r.reason).toMatchInlineSnapshot(
      `"push_to_remote needs approval first (rule space:backend push_to_remote = ask); an approval card is posted in the conversation."`,
    );
  });

  it('G2: the default decides when no rule matches; ids are shown without names', () => {
    const r = resolveGuardrail(input({ action: 'network', context: context({ spaceId: null }) }));
    expect(r.steps).toMatchInlineSnapshot(`
[
  "Action: network by agent a-alice outside any space (autonomy actWithApproval).",
  "network: no rule matches; the built-in default is allow.",
  "Autonomy actWithApproval: the rules apply as resolved.",
  "Decision: allow.",
]
`);
    expect(r.reason).toMatchInlineSnapshot(`"network is allowed by the built-in default network = allow."`);
  });

  it('G2: a tie inside one scope and a duplicate', () => {
    const rules = [
      rule(`space:${BACKEND}`, 'open_pull_request', 'allow'),
      rule(`space:${BACKEND}`, 'open_pull_request', 'deny'),
      rule(`space:${BACKEND}`, 'open_pull_request', 'deny'),
    ];
    const r = resolveGuardrail(input({ action: 'open_pull_request', rules, context: named() }));
    expect(r.steps).toMatchInlineSnapshot(`
[
  "Action: open_pull_request by agent alice in space backend (autonomy actWithApproval).",
  "open_pull_request: space:backend open_pull_request = deny decides (the most specific scope with a matching rule).",
  "  Same scope, less restrictive: space:backend open_pull_request = allow (deny beats allow).",
  "  Same scope, same decision: space:backend open_pull_request = deny (duplicate).",
  "  Overrides the built-in default open_pull_request = ask.",
  "Autonomy actWithApproval: the rules apply as resolved.",
  "Decision: deny.",
]
`);
    expect(r.reason).toMatchInlineSnapshot(
      `"open_pull_request is denied by rule space:backend open_pull_request = deny."`,
    );
  });

  it('G2, G2a: several classes combine, then the ask fails closed', () => {
    const rules = [rule('workspace', 'commit', 'allow')];
    const r = resolveGuardrail(
      input({
        action: ['commit', 'push_to_remote'],
        rules,
        context: named(),
        canBeApproved: { approverCount: 0, hasBoundChannel: true },
      }),
    );
    expect(r.steps).toMatchInlineSnapshot(`
[
  "Action: commit + push_to_remote by agent alice in space backend (autonomy actWithApproval).",
  "commit: workspace commit = allow decides (the most specific scope with a matching rule).",
  "push_to_remote: no rule matches; the built-in default is ask.",
  "Combined: ask, the most restrictive of commit = allow, push_to_remote = ask.",
  "Autonomy actWithApproval: the rules apply as resolved.",
  "Fail closed: ask needs an answer, but no member can approve it (the workspace has no owner, admin or approver); so it is denied.",
  "Decision: deny.",
]
`);
    expect(r.reason).toMatchInlineSnapshot(
      `"commit + push_to_remote is denied: it needs approval (the built-in default push_to_remote = ask), but no member can approve it (the workspace has no owner, admin or approver). A workspace owner can give a member the approver role."`,
    );
  });

  it('G2b: proposeOnly overrides an allow', () => {
    const rules = [rule(`agent:${ALICE}`, 'tracker_write', 'allow')];
    const r = resolveGuardrail(
      input({ action: 'tracker_write', rules, context: named({ autonomy: 'proposeOnly' }) }),
    );
    expect(r.steps).toMatchInlineSnapshot(`
[
  "Action: tracker_write by agent alice in space backend (autonomy proposeOnly).",
  "tracker_write: agent:alice tracker_write = allow decides (the most specific scope with a matching rule).",
  "Autonomy proposeOnly: every gated action is denied (allow becomes deny); the agent may still reply.",
  "Decision: deny.",
]
`);
  });

  it('G2b: actFreely turns an ask into allow', () => {
    const r = resolveGuardrail(input({ context: named({ autonomy: 'actFreely' }) }));
    expect(r.steps).toMatchInlineSnapshot(`
[
  "Action: push_to_remote by agent alice in space backend (autonomy actFreely).",
  "push_to_remote: no rule matches; the built-in default is ask.",
  "Autonomy actFreely: ask becomes allow.",
  "Decision: allow.",
]
`);
  });
});
