import { approvalDecided } from '../../audit/audit-entries';
import type { ApprovalRecord } from '../../model/approvals/approval-record';
import { SYSTEM_ACTOR } from '../../model/audit/audit-event';
import { waitTopics } from '../../ports/wait-signals';
import { requeueFromCheckpoint } from '../turn/turn-checkpoints';
import { cardUpdate, editCard } from './approval-card-update';
import type { ApprovalDeps } from './approval-deps';

/** G4: unanswered approvals expire (default 30 minutes) and count as denied. */
export async function expireDueApprovals(
  deps: Pick<ApprovalDeps, 'store' | 'platforms' | 'waits' | 'queue' | 'clock' | 'logger'>,
): Promise<string[]> {
  const due = await deps.store.transaction((tx) => tx.approvals.listPendingDue(deps.clock.now()));
  const expired: string[] = [];
  for (const approval of due) {
    if (!(await expireApproval(deps, approval))) continue;
    expired.push(approval.id);
    // T2: a turn parked on it resumes, to be told it lapsed.
    await requeueFromCheckpoint(deps, { id: approval.runId, workspaceId: approval.workspaceId }, approval.id);
  }
  return expired;
}

/**
 * G4: one pending approval lapses (stamped with its expiry time); its card says so and its
 * waiter is told. False when it was decided first.
 */
export async function expireApproval(
  deps: Pick<ApprovalDeps, 'store' | 'platforms' | 'waits'>,
  approval: ApprovalRecord,
): Promise<boolean> {
  const update = await deps.store.transaction(async (tx) => {
    const stored = await tx.approvals.decide(approval.id, {
      status: 'expired',
      decidedByMemberId: null,
      decidedAt: approval.expiresAt,
    });
    if (stored !== null)
      await tx.audit.append(stored.workspaceId, approvalDecided(stored, SYSTEM_ACTOR, 'system')); // O4
    return stored === null ? null : cardUpdate(tx, stored);
  });
  if (update === null) return false;
  await deps.waits.notify(waitTopics.approval(approval.id));
  await editCard(deps, update);
  return true;
}

/**
 * P15: a pending approval of a turn a person stopped no longer waits: it is closed as denied
 * (nobody decided it; the action does not happen), its card loses its buttons and gains the
 * line saying who stopped the turn, and anything still waiting on it (a held push) is told.
 */
export async function withdrawApproval(
  deps: Pick<ApprovalDeps, 'store' | 'platforms' | 'waits' | 'clock' | 'logger'>,
  approvalId: string,
  line: string,
): Promise<boolean> {
  const update = await deps.store.transaction(async (tx) => {
    const stored = await tx.approvals.decide(approvalId, {
      status: 'denied',
      decidedByMemberId: null,
      decidedAt: deps.clock.now(),
    });
    if (stored === null) return null;
    await tx.audit.append(stored.workspaceId, approvalDecided(stored, SYSTEM_ACTOR, 'system', line)); // O4
    const details = { ...stored.details, lines: [...stored.details.lines, line] };
    await tx.approvals.setDetails(stored.id, details);
    return cardUpdate(tx, { ...stored, details });
  });
  if (update === null) return false;
  deps.logger.info(
    { approvalId, runId: update.approval.runId, line },
    'approval withdrawn: its turn was stopped',
  );
  await deps.waits.notify(waitTopics.approval(approvalId));
  await editCard(deps, update);
  return true;
}

/** T2: adds `line` to an approval's card (once), stored with it so that later edits keep it. */
export async function annotateApproval(
  deps: Pick<ApprovalDeps, 'store' | 'platforms'>,
  approval: { id: string; workspaceId: string },
  line: string,
): Promise<void> {
  const update = await deps.store.inWorkspace(approval.workspaceId, async (tx) => {
    const current = await tx.approvals.findById(approval.id);
    if (current === null || current.details.lines.includes(line)) return null;
    const details = { ...current.details, lines: [...current.details.lines, line] };
    await tx.approvals.setDetails(current.id, details);
    return cardUpdate(tx, { ...current, details });
  });
  if (update !== null) await editCard(deps, update);
}
