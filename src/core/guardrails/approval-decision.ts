import type { Approval, ApprovalDecider, ApprovalVerdict } from '../model/approvals/approval';
import type { ApprovalStatus } from '../model/guardrail';
import { canApprove } from '../model/member';
import { expireIfDue } from './approval-expiry';

export type ApprovalRefusalCode = 'agent' | 'role' | 'already_decided' | 'expired';

/** One line of the approval's history: every click, accepted or refused. */
export interface ApprovalAuditEntry {
  approvalId: string;
  at: Date;
  actor: ApprovalDecider;
  verdict: ApprovalVerdict;
  outcome: 'approved' | 'denied' | 'refused';
  refusal: ApprovalRefusalCode | null;
  statusBefore: ApprovalStatus;
  statusAfter: ApprovalStatus;
  summary: string;
}

export type ApprovalDecisionResult<A extends Approval> =
  | { ok: true; approval: A; audit: ApprovalAuditEntry }
  | {
      ok: false;
      code: ApprovalRefusalCode;
      /** The sentence the clicker is told. */
      reason: string;
      /** Possibly changed: a click after the deadline still records the expiry. */
      approval: A;
      changed: boolean;
      audit: ApprovalAuditEntry;
    };

export interface DecideApprovalOptions {
  /** Display name of a member, for "already approved by …"; the id is shown without it. */
  memberName?: (memberId: string) => string | undefined;
}

/**
 * G4: a click on Approve or Deny. Only owners, admins and approvers decide; agents never
 * can; every other click is refused and told why. The deadline is checked first, so a click
 * after it records the expiry whoever clicked.
 */
export function decideApproval<A extends Approval>(
  approval: A,
  decider: ApprovalDecider,
  verdict: ApprovalVerdict,
  now: Date,
  options: DecideApprovalOptions = {},
): ApprovalDecisionResult<A> {
  const current = expireIfDue(approval, now);
  const changed = current !== approval;
  const refuse = (code: ApprovalRefusalCode, reason: string): ApprovalDecisionResult<A> => ({
    ok: false,
    code,
    reason,
    approval: current,
    changed,
    audit: audit(approval, current, decider, verdict, now, code, reason),
  });

  // G4: agents never decide, whatever the approval's state.
  if (decider.kind === 'agent') {
    return refuse(
      'agent',
      'An agent can never approve or deny an action; only a member with role owner, admin or approver can.',
    );
  }
  // G4: only owner, admin, approver.
  if (!canApprove(decider.role)) {
    return refuse(
      'role',
      `Your role is ${decider.role}, so you cannot decide this request; only a member with role owner, admin or approver can. Ask one of them.`,
    );
  }
  // G4: an unanswered approval expires and counts as denied.
  if (current.status === 'expired') {
    const at = (current.decidedAt ?? current.expiresAt).toISOString();
    return refuse(
      'expired',
      `This request expired at ${at} without a decision and counts as denied; the agent has to ask again.`,
    );
  }
  if (current.status !== 'pending') {
    const who = deciderName(current.decidedByMemberId, decider.memberId, options);
    const when = current.decidedAt === null ? '' : ` at ${current.decidedAt.toISOString()}`;
    return refuse(
      'already_decided',
      `This request was already ${current.status} by ${who}${when}; a decision cannot be changed.`,
    );
  }

  const decided: A = {
    ...current,
    status: verdict === 'deny' ? 'denied' : 'approved',
    decidedByMemberId: decider.memberId,
    decidedAt: now,
  };
  return { ok: true, approval: decided, audit: audit(approval, decided, decider, verdict, now, null, null) };
}

function deciderName(decidedBy: string | null, clicker: string, options: DecideApprovalOptions): string {
  if (decidedBy === null) return 'someone';
  if (decidedBy === clicker) return 'you';
  return options.memberName?.(decidedBy) ?? `member ${decidedBy}`;
}

function actorLabel(actor: ApprovalDecider): string {
  return actor.kind === 'agent' ? `agent ${actor.agentId}` : `member ${actor.memberId} (${actor.role})`;
}

function audit(
  before: Approval,
  after: Approval,
  actor: ApprovalDecider,
  verdict: ApprovalVerdict,
  at: Date,
  refusal: ApprovalRefusalCode | null,
  reason: string | null,
): ApprovalAuditEntry {
  const outcome = refusal !== null ? 'refused' : verdict === 'deny' ? 'denied' : 'approved';
  const summary =
    refusal === null
      ? `${actorLabel(actor)} ${outcome} approval ${before.id}.`
      : `${actorLabel(actor)} tried to ${verdict} approval ${before.id}: refused (${refusal}). ${reason ?? ''}`.trim();
  return {
    approvalId: before.id,
    at,
    actor,
    verdict,
    outcome,
    refusal,
    statusBefore: before.status,
    statusAfter: after.status,
    summary,
  };
}
