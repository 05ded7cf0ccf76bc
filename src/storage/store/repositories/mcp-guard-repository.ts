import type { EntityManager } from 'typeorm';
import { NotFoundError } from '../../../core/errors';
import {
  MCP_CALL_DECISIONS,
  MCP_CALL_OUTCOMES,
  type McpCallDecision,
  type McpCallOutcome,
  type McpCallRecord,
} from '../../../core/model/mcp/mcp-call-record';
import type {
  McpCallRepository,
  McpConversationGrant,
  McpGrantRepository,
} from '../../../core/ports/mcp-guard-store';
import { isUuid } from '../ids';
import { queryRecords } from '../query-records';

interface GrantRow {
  id: string;
  workspace_id: string;
  conversation_id: string;
  subject_hash: string;
  approval_id: string | null;
  granted_by_member_id: string | null;
  granted_at: Date;
}

interface CallRow {
  id: string;
  workspace_id: string;
  run_id: string;
  server: string;
  tool: string;
  decision: string;
  approved_by_member_id: string | null;
  duration_ms: number;
  outcome: string;
  at: Date;
}

const toGrant = (row: GrantRow): McpConversationGrant => ({
  id: row.id,
  workspaceId: row.workspace_id,
  conversationId: row.conversation_id,
  subjectHash: row.subject_hash,
  approvalId: row.approval_id,
  grantedByMemberId: row.granted_by_member_id,
  grantedAt: row.granted_at,
});

const oneOf = <T extends string>(values: readonly T[], value: string, what: string): T => {
  if ((values as readonly string[]).includes(value)) return value as T;
  throw new Error(`mcp_calls holds an unknown ${what} "${value}"`);
};

const toCall = (row: CallRow): McpCallRecord => ({
  id: row.id,
  workspaceId: row.workspace_id,
  runId: row.run_id,
  server: row.server,
  tool: row.tool,
  decision: oneOf<McpCallDecision>(MCP_CALL_DECISIONS, row.decision, 'decision'),
  approvedByMemberId: row.approved_by_member_id,
  durationMs: row.duration_ms,
  outcome: oneOf<McpCallOutcome>(MCP_CALL_OUTCOMES, row.outcome, 'outcome'),
  at: row.at,
});

/** E4: grants are keyed by (conversation, subject hash); a second grant of the same call keeps the first. */
export const mcpGrantRepository = (manager: EntityManager): McpGrantRepository => ({
  async grant(workspaceId, fields) {
    if (!isUuid(fields.conversationId)) {
      throw new NotFoundError(`No conversation with id ${fields.conversationId} in this workspace.`);
    }
    await queryRecords(
      manager,
      `INSERT INTO mcp_conversation_grants
         (workspace_id, conversation_id, subject_hash, approval_id, granted_by_member_id, granted_at)
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT ON CONSTRAINT uq_mcp_conversation_grants_subject DO NOTHING`,
      [
        workspaceId,
        fields.conversationId,
        fields.subjectHash,
        fields.approvalId,
        fields.grantedByMemberId,
        fields.grantedAt,
      ],
    );
    const found = await this.find(fields.conversationId, fields.subjectHash);
    if (found === null) throw new NotFoundError(`No conversation with id ${fields.conversationId}.`);
    return found;
  },
  async find(conversationId, subjectHash) {
    if (!isUuid(conversationId)) return null;
    const [row] = await queryRecords<GrantRow>(
      manager,
      'SELECT * FROM mcp_conversation_grants WHERE conversation_id = $1 AND subject_hash = $2',
      [conversationId, subjectHash],
    );
    return row === undefined ? null : toGrant(row);
  },
});

/** O4: one row per MCP call, written once it has run (or been refused). */
export const mcpCallRepository = (manager: EntityManager): McpCallRepository => ({
  async insert(workspaceId, call) {
    if (!isUuid(call.runId)) throw new NotFoundError(`No run with id ${call.runId} in this workspace.`);
    const [row] = await queryRecords<CallRow>(
      manager,
      `INSERT INTO mcp_calls
         (workspace_id, run_id, server, tool, decision, approved_by_member_id, duration_ms, outcome, at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
       RETURNING *`,
      [
        workspaceId,
        call.runId,
        call.server,
        call.tool,
        call.decision,
        call.approvedByMemberId,
        Math.max(0, Math.round(call.durationMs)),
        call.outcome,
        call.at,
      ],
    );
    if (row === undefined) throw new NotFoundError(`No run with id ${call.runId} in this workspace.`);
    return toCall(row);
  },
  async listForRun(runId) {
    if (!isUuid(runId)) return [];
    const rows = await queryRecords<CallRow>(
      manager,
      'SELECT * FROM mcp_calls WHERE run_id = $1 ORDER BY at, id',
      [runId],
    );
    return rows.map(toCall);
  },
});
