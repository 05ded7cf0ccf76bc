import {
  type Approval,
  type ApprovalDecider,
  type ApprovalVerdict,
  decideApproval,
  openApproval,
} from '../../../src/core/guardrails';
import type { MemberRole } from '../../../src/core/model/member';

const T0 = new Date('2025-03-01T10:00:00.000Z');
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);
const pending = (): Approval => openApproval({ id: 'ap1', requestedAt: T0 });
const member = (role: MemberRole, memberId = `m-${role}`): ApprovalDecider => ({
  kind: 'member',
  memberId,
  role,
});

describe('G4: who may decide an approval', () => {
  it.each<[MemberRole, ApprovalVerdict, 'approved' | 'denied']>([
    ['owner', 'approve', 'approved'],
    ['owner', 'deny', 'denied'],
    ['admin', 'approve', 'approved'],
    ['admin', 'deny', 'denied'],
    ['approver', 'approve', 'approved'],
    ['approver', 'deny', 'denied'],
    // E4: approving for the conversation approves this call as Approve does, under the same roles.
    ['owner', 'approve-conversation', 'approved'],
    ['approver', 'approve-conversation', 'approved'],
  ])('G4, E4: an %s may %s', (role, verdict, status) => {
    const result = decideApproval(pending(), member(role), verdict, at(5));
    expect(result).toEqual({
      ok: true,
      approval: { ...pending(), status, decidedByMemberId: `m-${role}`, decidedAt: at(5) },
      audit: {
        approvalId: 'ap1',
        at: at(5),
        actor: member(role),
        verdict,
        outcome: status,
        refusal: null,
        statusBefore: 'pending',
        statusAfter: status,
        summary: `member m-${role} (${role}) ${status} approval ap1.`,
      },
    });
  });

  it.each<[MemberRole, ApprovalVerdict]>([
    ['member', 'approve'],
    ['member', 'deny'],
    ['viewer', 'approve'],
    ['viewer', 'deny'],
    ['member', 'approve-conversation'],
    ['viewer', 'approve-conversation'],
  ])('G4: a %s who clicks %s is refused and told why', (role, verdict) => {
    const before = pending();
    const result = decideApproval(before, member(role), verdict, at(5));
    expect(result).toMatchObject({
      ok: false,
      code: 'role',
      reason: `Your role is ${role}, so you cannot decide this request; only a member with role owner, admin or approver can. Ask one of them.`,
      changed: false,
      audit: { outcome: 'refused', refusal: 'role', statusBefore: 'pending', statusAfter: 'pending' },
    });
    expect(result.approval).toBe(before);
  });

  it.each<[ApprovalVerdict]>([['approve'], ['approve-conversation'], ['deny']])(
    'G4, E4: an agent can never %s',
    (verdict) => {
      const result = decideApproval(pending(), { kind: 'agent', agentId: 'a-alice' }, verdict, at(1));
      expect(result).toMatchObject({
        ok: false,
        code: 'agent',
        reason:
          'An agent can never approve or deny an action; only a member with role owner, admin or approver can.',
        approval: { status: 'pending' },
      });
      expect(result.audit.summary).toBe(
        `agent a-alice tried to ${verdict} approval ap1: refused (agent). An agent can never approve or deny an action; only a member with role owner, admin or approver can.`,
      );
    },
  );
});

describe('G4: a decision is final', () => {
  const approved = (): Approval => ({
    ...pending(),
    status: 'approved',
    decidedByMemberId: 'm-owner',
    decidedAt: at(2),
  });

  it('G4: a second click is refused, saying by whom and when', () => {
    const result = decideApproval(approved(), member('admin'), 'deny', at(3));
    expect(result).toMatchObject({
      ok: false,
      code: 'already_decided',
      reason:
        'This request was already approved by member m-owner at 2025-03-01T10:02:00.000Z; a decision cannot be changed.',
      approval: approved(),
      changed: false,
    });
  });

  it('G4: the decider is named when a lookup is given, and "you" for the same member', () => {
    const names = { memberName: (id: string) => (id === 'm-owner' ? 'olga' : undefined) };
    const byOther = decideApproval(approved(), member('admin'), 'approve', at(3), names);
    expect(!byOther.ok && byOther.reason).toBe(
      'This request was already approved by olga at 2025-03-01T10:02:00.000Z; a decision cannot be changed.',
    );
    const bySelf = decideApproval(approved(), member('owner'), 'deny', at(3), names);
    expect(!bySelf.ok && bySelf.reason).toBe(
      'This request was already approved by you at 2025-03-01T10:02:00.000Z; a decision cannot be changed.',
    );
  });

  it('G4: a denied request stays denied', () => {
    const first = decideApproval(pending(), member('approver'), 'deny', at(1));
    if (!first.ok) throw new Error('first click should be accepted');
    const second = decideApproval(first.approval, member('owner'), 'approve', at(2));
    expect(second).toMatchObject({ ok: false, code: 'already_decided', approval: { status: 'denied' } });
  });

  it('G4: a decision after the deadline does not matter once decided (approved stays approved)', () => {
    const result = decideApproval(approved(), member('owner'), 'approve', at(45));
    expect(result).toMatchObject({
      ok: false,
      code: 'already_decided',
      approval: { status: 'approved' },
      changed: false,
    });
  });
});

describe('G4: an unanswered approval expires', () => {
  it('G4: a click one millisecond before the deadline still counts', () => {
    const now = new Date(at(30).getTime() - 1);
    expect(decideApproval(pending(), member('owner'), 'approve', now)).toMatchObject({
      ok: true,
      approval: { status: 'approved' },
    });
  });

  it('G4: a click at the deadline (now ≥ expiresAt) expires it and is refused', () => {
    const result = decideApproval(pending(), member('owner'), 'approve', at(30));
    expect(result).toMatchObject({
      ok: false,
      code: 'expired',
      reason:
        'This request expired at 2025-03-01T10:30:00.000Z without a decision and counts as denied; the agent has to ask again.',
      approval: { status: 'expired', decidedByMemberId: null, decidedAt: at(30) },
      changed: true,
      audit: { statusBefore: 'pending', statusAfter: 'expired', refusal: 'expired' },
    });
  });

  it('G4: a late click by someone who may not decide still records the expiry', () => {
    const result = decideApproval(pending(), { kind: 'agent', agentId: 'a-bob' }, 'approve', at(31));
    expect(result).toMatchObject({
      ok: false,
      code: 'agent',
      changed: true,
      approval: { status: 'expired' },
    });
  });

  it('G4: a click on an already expired request is refused without a change', () => {
    const expired: Approval = { ...pending(), status: 'expired', decidedAt: at(30) };
    expect(decideApproval(expired, member('admin'), 'deny', at(40))).toMatchObject({
      ok: false,
      code: 'expired',
      changed: false,
      approval: expired,
    });
  });

  it('G4: a richer record passes through with its extra fields', () => {
    const card = { ...pending(), branch: 'main', repository: 'acme/api' };
    const result = decideApproval(card, member('owner'), 'approve', at(1));
    expect(result.approval).toMatchObject({ branch: 'main', repository: 'acme/api', status: 'approved' });
  });
});
