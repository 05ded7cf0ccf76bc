import type { ApprovalRecord } from '../../model/approvals/approval-record';
import type { StoreTx } from '../../ports/store';

/** E4: said to a click on "Approve for this conversation" on a card that is not an MCP call's. */
export const NOT_GRANTABLE =
  'Only an MCP tool call can be approved for the whole conversation; use Approve for this one.';

/**
 * E4: "Approve for this conversation", in the decision's transaction: the approval (already
 * approved by `memberId`) is marked so, and the same call (its subject hash) is granted in the
 * run's conversation: later calls there with the same server, tool and arguments need no card.
 */
export async function grantForConversation(
  tx: StoreTx,
  approval: ApprovalRecord,
  memberId: string,
  now: Date,
): Promise<ApprovalRecord> {
  const run = await tx.runs.findById(approval.runId);
  if (run === null || approval.subjectHash === null) return approval;
  await tx.mcpGrants.grant(approval.workspaceId, {
    conversationId: run.conversationId,
    subjectHash: approval.subjectHash,
    approvalId: approval.id,
    grantedByMemberId: memberId,
    grantedAt: now,
  });
  await tx.approvals.markConversationGrant(approval.id);
  return { ...approval, conversationGrant: true };
}

/** E4: the grant an earlier "Approve for this conversation" made for this very call, if any. */
export async function conversationGrantFor(
  tx: StoreTx,
  runId: string,
  subjectHash: string,
): Promise<{ grantedByMemberId: string | null } | null> {
  const run = await tx.runs.findById(runId);
  if (run === null) return null;
  return tx.mcpGrants.find(run.conversationId, subjectHash);
}
