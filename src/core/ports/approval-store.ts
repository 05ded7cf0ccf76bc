import type { ApprovalRecord } from '../model/approvals/approval-record';
import type { ApprovalStatus } from '../model/guardrail';

export interface ApprovalRepository {
  insert(
    workspaceId: string,
    fields: Pick<ApprovalRecord, 'runId' | 'action' | 'details' | 'requestedAt' | 'expiresAt'> &
      Partial<Pick<ApprovalRecord, 'subjectHash' | 'routineProposal'>>,
  ): Promise<ApprovalRecord>;
  findById(id: string): Promise<ApprovalRecord | null>;
  /**
   * Records a decision only if the approval is still `pending` (compare-and-set, so two
   * clicks at once cannot both decide); returns the updated record, or null if it was not pending.
   */
  decide(
    id: string,
    decision: {
      status: Exclude<ApprovalStatus, 'pending'>;
      decidedByMemberId: string | null;
      decidedAt: Date;
    },
  ): Promise<ApprovalRecord | null>;
  setCardRef(id: string, platformCardRef: string): Promise<void>;
  /** E4: the approval was given for the whole conversation (its card says so). */
  markConversationGrant(id: string): Promise<void>;
  /** What the card shows (T2: a line saying a held push must be pushed again). */
  setDetails(id: string, details: ApprovalRecord['details']): Promise<void>;
  /** Pending approvals whose deadline has passed (system context: the expiry sweep). */
  listPendingDue(now: Date): Promise<ApprovalRecord[]>;
}
