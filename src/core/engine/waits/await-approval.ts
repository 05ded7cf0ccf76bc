import { AppError } from '../../errors';
import { approvalOutcome } from '../../guardrails';
import type { ApprovalWait } from '../../ports/run-approvals';
import { waitTopics } from '../../ports/wait-signals';
import { expireApproval, withdrawApproval } from '../approvals/approval-endings';
import { stoppedByOf, stoppedBySentence } from '../stop/stop-run';
import { awaitWithoutSlot } from './await-without-slot';
import type { WaitsDeps } from './waits-deps';

export type { ApprovalWait };

/**
 * G4, T1: waits for a person to decide approval `approvalId` of run `runId`, holding no turn
 * slot and polling nothing: a decision (in any process) notifies it; its expiry is a timer,
 * at which it is marked expired and its card says so. Used by tool calls (`guardCall`) and
 * by pushes held at the git gateway alike.
 */
export async function awaitApproval(
  deps: WaitsDeps,
  approvalId: string,
  signal: AbortSignal,
): Promise<ApprovalWait> {
  const read = async () => {
    const approval = await deps.store.transaction((tx) => tx.approvals.findById(approvalId));
    if (approval === null) throw new AppError(`no approval ${approvalId}`, 'not_found');
    return approval;
  };
  const first = await read();
  const outcome = await awaitWithoutSlot(deps, first.runId, {
    topic: waitTopics.approval(approvalId),
    until: first.expiresAt,
    signal,
    check: async () => {
      const approval = await read();
      return approvalOutcome(approval, deps.clock.now()) === 'pending' ? null : approval;
    },
  });
  if (outcome.state === 'aborted') {
    // P15: a person's Stop of the run (its tool call, or the push its git client made, ended)
    // closes the approval and its card says who; a worker shutting down or a client that just
    // left leaves it pending, for a resumed turn to wait on (T2).
    const by = await stoppedByOf(deps, first.runId, first.workspaceId);
    if (by !== null) await withdrawApproval(deps, approvalId, stoppedBySentence(by));
    return 'aborted';
  }
  const decided = outcome.state === 'ready' ? outcome.value : await read();
  if (decided.status === 'approved') return 'allow';
  if (decided.status === 'denied') return 'denied';
  // G4: due, still pending in the store: this wait marks it expired (once) and edits the card.
  if (decided.status === 'pending') await expireApproval(deps, decided);
  const final = await read();
  return final.status === 'approved' ? 'allow' : final.status === 'denied' ? 'denied' : 'expired';
}
