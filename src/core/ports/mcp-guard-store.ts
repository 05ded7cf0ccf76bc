import type { McpCallRecord } from '../model/mcp/mcp-call-record';

/** E4: a grant made by "Approve for this conversation": the same call there needs no card again. */
export interface McpConversationGrant {
  id: string;
  workspaceId: string;
  conversationId: string;
  subjectHash: string;
  approvalId: string | null;
  grantedByMemberId: string | null;
  grantedAt: Date;
}

/** E4: the conversation grants of MCP calls (in a workspace transaction, A2). */
export interface McpGrantRepository {
  /** Records a grant; granting the same call in the same conversation again keeps the first. */
  grant(
    workspaceId: string,
    fields: Omit<McpConversationGrant, 'id' | 'workspaceId'>,
  ): Promise<McpConversationGrant>;
  find(conversationId: string, subjectHash: string): Promise<McpConversationGrant | null>;
}

/** E4, O4: every MCP call of a run, with how it was decided and how it went. */
export interface McpCallRepository {
  insert(workspaceId: string, call: Omit<McpCallRecord, 'id' | 'workspaceId'>): Promise<McpCallRecord>;
  listForRun(runId: string): Promise<McpCallRecord[]>;
}
