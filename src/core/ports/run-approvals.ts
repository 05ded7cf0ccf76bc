import type { ApprovalOutcome } from '../model/approvals/approval';
import type { ApprovalDetails, ApprovalRecord } from '../model/approvals/approval-record';
import type { GuardrailAction } from '../model/guardrail';

/** How a wait on an approval ended (G4: an expiry counts as denied, but is told apart). */
export type ApprovalWait = 'allow' | 'denied' | 'expired' | 'aborted';

/**
 * G4: approvals of a run's actions outside a tool call (a push held at the git gateway, a pull
 * request): the turn engine provides them, with its one approval wait.
 */
export interface RunApprovals {
  /** An `ask` becomes an approval card in the run's conversation. */
  requestApproval(request: {
    runId: string;
    action: GuardrailAction;
    details: ApprovalDetails;
    ttlMs?: number;
  }): Promise<ApprovalRecord>;
  approvalState(approvalId: string): Promise<ApprovalOutcome>;
  /**
   * G4, T1: waits for the decision, the engine's one approval wait (the run's turn slot is
   * given back meanwhile, nothing polls; an expiry marks the approval expired).
   */
  awaitApproval(approvalId: string, signal: AbortSignal): Promise<ApprovalWait>;
}
