import type { ApprovalRecord } from '../../model/approvals/approval-record';
import type { OutboundMessage } from '../../ports/chat-platform';

/** G4, P5: the card people approve or deny from; its buttons carry only the record id. */
export function approvalMessage(
  approval: ApprovalRecord,
  agentName: string,
  decidedBy: string | null,
): OutboundMessage {
  return {
    as: { kind: 'system' },
    content: {
      kind: 'approval',
      card: {
        approvalId: approval.id,
        agent: agentName,
        action: approval.action,
        summary: approval.details.summary,
        details: approval.details.lines,
        status: approval.status,
        decidedBy,
        // E4: an MCP call's card shows its arguments and offers "Approve for this conversation".
        ...(approval.details.code === undefined ? {} : { code: approval.details.code }),
        ...(approval.subjectHash === null ? {} : { offersConversation: true }),
        ...(approval.conversationGrant ? { forConversation: true } : {}),
      },
    },
  };
}
