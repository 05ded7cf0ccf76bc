import { ValidationError } from '../../../src/core/errors';
import {
  type Approval,
  approvalExpiry,
  approvalOutcome,
  DEFAULT_APPROVAL_TTL_MS,
  expireIfDue,
  openApproval,
} from '../../../src/core/guardrails';
import type { ApprovalStatus } from '../../../src/core/model/guardrail';

const T0 = new Date('2025-03-01T10:00:00.000Z');
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);
const pending = (): Approval => openApproval({ id: 'ap1', requestedAt: T0 });

describe('G4: approval expiry', () => {
  it('G4: the default timeout is 30 minutes', () => {
    expect(DEFAULT_APPROVAL_TTL_MS).toBe(1_800_000);
    expect(approvalExpiry(T0)).toEqual(at(30));
    expect(approvalExpiry(T0, 60_000)).toEqual(at(1));
    expect(pending()).toEqual({
      id: 'ap1',
      status: 'pending',
      requestedAt: T0,
      expiresAt: at(30),
      decidedByMemberId: null,
      decidedAt: null,
    });
  });

  it.each([[0], [-5], [Number.NaN], [Number.POSITIVE_INFINITY]])('refuses a timeout of %p', (ttl) => {
    expect(() => approvalExpiry(T0, ttl)).toThrow(ValidationError);
  });

  it('G4: expireIfDue leaves a pending approval alone before the deadline (same object)', () => {
    const approval = pending();
    expect(expireIfDue(approval, at(29))).toBe(approval);
  });

  it('G4: expireIfDue expires at the deadline, stamped with the deadline', () => {
    expect(expireIfDue(pending(), at(90))).toEqual({ ...pending(), status: 'expired', decidedAt: at(30) });
  });

  it.each<[ApprovalStatus]>([['approved'], ['denied'], ['expired']])(
    'G4: expireIfDue never touches a %s approval',
    (status) => {
      const approval: Approval = { ...pending(), status, decidedAt: at(1) };
      expect(expireIfDue(approval, at(90))).toBe(approval);
    },
  );
});

describe('G2a, G4: an unanswered approval is never a yes', () => {
  it.each<[ApprovalStatus, number, 'allow' | 'deny' | 'pending']>([
    ['pending', 0, 'pending'],
    ['pending', 29, 'pending'],
    ['pending', 30, 'deny'],
    ['pending', 600, 'deny'],
    ['approved', 10, 'allow'],
    ['approved', 600, 'allow'],
    ['denied', 10, 'deny'],
    ['expired', 31, 'deny'],
  ])('G4: %s at +%i min → %s', (status, minutes, outcome) => {
    const approval: Approval = { ...pending(), status };
    expect(approvalOutcome(approval, at(minutes))).toBe(outcome);
  });
});
