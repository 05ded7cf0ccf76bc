import type { EntityManager } from 'typeorm';
import { NotFoundError, ValidationError } from '../../../core/errors';
import type { ApprovalDetails, ApprovalRecord } from '../../../core/model/approvals/approval-record';
import type { RoutineProposal } from '../../../core/model/routines/routine';
import type { ApprovalRepository } from '../../../core/ports/approval-store';
import { ApprovalEntity, type ApprovalRow } from '../../entities/approval.entity';
import { isUuid } from '../ids';
import { queryRecords } from '../query-records';
import { updateById } from '../update-by-id';

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * G4: what the card shows, read defensively: jsonb written by hand or by an older shape (the
 * column defaults to `{}`) yields what can be recognised, never a malformed record.
 */
export const toApprovalDetails = (value: unknown): ApprovalDetails => {
  const stored = isRecord(value) ? value : {};
  return {
    summary: typeof stored.summary === 'string' ? stored.summary : '',
    lines: Array.isArray(stored.lines)
      ? stored.lines.filter((line): line is string => typeof line === 'string')
      : [],
    // E4: an MCP call's arguments, shown as a block.
    ...(typeof stored.code === 'string' ? { code: stored.code } : {}),
  };
};

/** Exactly the card's fields, whatever else the caller's object carries. */
const storedDetails = (details: ApprovalDetails): ApprovalDetails => ({
  summary: details.summary,
  lines: [...details.lines],
  ...(details.code === undefined ? {} : { code: details.code }),
});

export const toApprovalRecord = (row: ApprovalRow): ApprovalRecord => ({
  id: row.id,
  workspaceId: row.workspaceId,
  runId: row.runId,
  action: row.action,
  details: toApprovalDetails(row.details),
  status: row.status,
  decidedByMemberId: row.decidedByMemberId,
  requestedAt: row.requestedAt,
  decidedAt: row.decidedAt,
  expiresAt: row.expiresAt,
  platformCardRef: row.platformCardRef,
  subjectHash: row.subjectHash ?? null,
  conversationGrant: row.conversationGrant === true,
  // W1: written only by `insert` below, from a proposal the tool checked.
  routineProposal: isRecord(row.routineProposal) ? (row.routineProposal as unknown as RoutineProposal) : null,
});

/**
 * G4: the decision is a compare-and-set on `status`. Under READ COMMITTED a second decider
 * waits for the first one's row lock, then re-checks the condition on the row it committed:
 * no longer pending, so it changes nothing (and learns so from the empty RETURNING).
 */
const DECIDE = `
  UPDATE approvals SET status = $2, decided_by_member_id = $3, decided_at = $4
   WHERE id = $1 AND status = 'pending'
  RETURNING id`;

export const approvalRepository = (manager: EntityManager): ApprovalRepository => {
  const rows = manager.getRepository(ApprovalEntity);
  return {
    async insert(workspaceId, fields) {
      // A2: fk_approvals_run refuses a run of another workspace (a NotFoundError).
      if (!isUuid(fields.runId)) throw new NotFoundError(`No run with id ${fields.runId} in this workspace.`);
      const row = rows.create({
        workspaceId,
        runId: fields.runId,
        action: fields.action,
        details: storedDetails(fields.details),
        status: 'pending',
        decidedByMemberId: null,
        requestedAt: fields.requestedAt,
        decidedAt: null,
        expiresAt: fields.expiresAt,
        platformCardRef: null,
        subjectHash: fields.subjectHash ?? null,
        conversationGrant: false,
        routineProposal: fields.routineProposal ?? null,
      });
      return toApprovalRecord(await rows.save(row));
    },
    async findById(id) {
      if (!isUuid(id)) return null;
      const row = await rows.findOneBy({ id });
      return row ? toApprovalRecord(row) : null;
    },
    async decide(id, decision) {
      // The type already rules it out; a decision back to pending would reopen a decided card.
      if ((decision.status as string) === 'pending') {
        throw new ValidationError('An approval can only be decided as approved, denied or expired.');
      }
      const { decidedByMemberId } = decision;
      if (decidedByMemberId !== null && !isUuid(decidedByMemberId)) {
        throw new NotFoundError(`No member with id ${decidedByMemberId} in this workspace.`);
      }
      // A2: an approval of another workspace is hidden by row-level security, so it is "not
      // pending" here; fk_approvals_decided_by refuses a member of another workspace.
      if (!isUuid(id)) return null;
      const [decided] = await queryRecords<{ id: string }>(manager, DECIDE, [
        id,
        decision.status,
        decidedByMemberId,
        decision.decidedAt,
      ]);
      if (!decided) return null;
      return toApprovalRecord(await rows.findOneByOrFail({ id: decided.id }));
    },
    async setCardRef(id, platformCardRef) {
      await updateById(rows, id, { platformCardRef }, ['platformCardRef'], 'approval');
    },
    async markConversationGrant(id) {
      await updateById(rows, id, { conversationGrant: true }, ['conversationGrant'], 'approval');
    },
    async setDetails(id, details) {
      await updateById(rows, id, { details: storedDetails(details) }, ['details'], 'approval');
    },
    async listPendingDue(now) {
      // G4: due at its deadline, not only after it; the oldest request first.
      const found = await rows
        .createQueryBuilder('approval')
        .where("approval.status = 'pending'")
        .andWhere('approval.expiresAt <= :now', { now })
        .orderBy('approval.requestedAt', 'ASC')
        .addOrderBy('approval.seq', 'ASC')
        .getMany();
      return found.map(toApprovalRecord);
    },
  };
};
