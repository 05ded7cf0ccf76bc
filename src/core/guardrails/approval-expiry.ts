import { ValidationError } from '../errors';
import type { Approval, ApprovalOutcome } from '../model/approvals/approval';

/** G4: an unanswered approval expires after 30 minutes by default. */
export const DEFAULT_APPROVAL_TTL_MS = 30 * 60 * 1000;

export function approvalExpiry(requestedAt: Date, ttlMs: number = DEFAULT_APPROVAL_TTL_MS): Date {
  if (!Number.isFinite(ttlMs) || ttlMs <= 0) {
    throw new ValidationError(
      `The approval timeout must be a positive number of milliseconds; got ${String(ttlMs)}.`,
    );
  }
  return new Date(requestedAt.getTime() + ttlMs);
}

/** A new pending approval. */
export function openApproval(fields: { id: string; requestedAt: Date; ttlMs?: number }): Approval {
  return {
    id: fields.id,
    status: 'pending',
    requestedAt: fields.requestedAt,
    expiresAt: approvalExpiry(fields.requestedAt, fields.ttlMs),
    decidedByMemberId: null,
    decidedAt: null,
  };
}

export const isDue = (approval: Approval, now: Date): boolean =>
  approval.status === 'pending' && now.getTime() >= approval.expiresAt.getTime();

/**
 * G4: a pending approval whose time has come (now ≥ expiresAt) becomes `expired`, stamped
 * with its expiry time rather than `now`, so the record says when it lapsed however late
 * it is noticed. Returns the same object when nothing changes.
 */
export function expireIfDue<A extends Approval>(approval: A, now: Date): A {
  if (!isDue(approval, now)) return approval;
  return { ...approval, status: 'expired', decidedByMemberId: null, decidedAt: approval.expiresAt };
}

/** G2a, G4: an unanswered approval is never a yes; expired counts as denied. */
export function approvalOutcome(approval: Approval, now: Date): ApprovalOutcome {
  switch (expireIfDue(approval, now).status) {
    case 'approved':
      return 'allow';
    case 'denied':
    case 'expired':
      return 'deny';
    case 'pending':
      return 'pending';
  }
}
