import { type ApprovalReach, approvalBlocker, resolveGuardrail } from '../../../src/core/guardrails';
import type { GuardrailDecision } from '../../../src/core/model/guardrail';
import { input, rule } from './fixtures';

describe('G2a: an ask nobody can answer fails closed', () => {
  it.each<[string, ApprovalReach, string]>([
    [
      'no way to approve (plain false)',
      false,
      'push_to_remote is denied: it needs approval (the built-in default push_to_remote = ask), but no member can approve it or there is no channel to post the approval card in. A workspace owner can give a member the approver role or bind a chat channel to the space.',
    ],
    [
      'no approver in the workspace',
      { approverCount: 0, hasBoundChannel: true },
      'push_to_remote is denied: it needs approval (the built-in default push_to_remote = ask), but no member can approve it (the workspace has no owner, admin or approver). A workspace owner can give a member the approver role.',
    ],
    [
      'no bound channel',
      { approverCount: 3, hasBoundChannel: false },
      'push_to_remote is denied: it needs approval (the built-in default push_to_remote = ask), but there is no channel to post the approval card in (no chat channel is bound to this space). A workspace owner can bind a chat channel to the space.',
    ],
    [
      'neither',
      { approverCount: 0, hasBoundChannel: false },
      'push_to_remote is denied: it needs approval (the built-in default push_to_remote = ask), but no member can approve it (the workspace has no owner, admin or approver), and there is no channel to post the approval card in (no chat channel is bound to this space). A workspace owner can give a member the approver role and bind a chat channel to the space.',
    ],
  ])('G2a: %s → deny, and the agent is told why', (_name, canBeApproved, reason) => {
    const r = resolveGuardrail(input({ canBeApproved }));
    expect(r.ruleDecision).toBe('ask');
    expect(r.decision).toBe('deny');
    expect(r.failedClosed).toBe(true);
    expect(r.reason).toBe(reason);
  });

  it.each<[ApprovalReach]>([[true], [{ approverCount: 1, hasBoundChannel: true }]])(
    'G2a: an ask that can be answered stays ask (%j)',
    (canBeApproved) => {
      const r = resolveGuardrail(input({ canBeApproved }));
      expect(r.decision).toBe('ask');
      expect(r.failedClosed).toBe(false);
      expect(r.reason).toBe(
        'push_to_remote needs approval first (the built-in default push_to_remote = ask); an approval card is posted in the conversation.',
      );
    },
  );

  it.each<[GuardrailDecision]>([['allow'], ['deny']])(
    'G2a: a %s is untouched when nobody can approve',
    (decision) => {
      const r = resolveGuardrail(
        input({ rules: [rule('workspace', 'push_to_remote', decision)], canBeApproved: false }),
      );
      expect(r.decision).toBe(decision);
      expect(r.failedClosed).toBe(false);
    },
  );

  it('G2a: a negative or NaN approver count counts as none', () => {
    expect(approvalBlocker({ approverCount: Number.NaN, hasBoundChannel: true })).toMatch(
      /no member can approve/,
    );
    expect(approvalBlocker({ approverCount: -1, hasBoundChannel: true })).toMatch(/no member can approve/);
  });
});
