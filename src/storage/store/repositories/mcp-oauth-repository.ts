import type { EntityManager } from 'typeorm';
import { MCP_OAUTH_LINK_TTL_MS, type McpOAuthPendingRecord } from '../../../core/model/mcp/mcp-oauth';
import type { McpOAuthRepository } from '../../../core/ports/mcp-oauth-store';
import { isUuid } from '../ids';
import { queryRecords } from '../query-records';

interface PendingRow {
  id: string;
  workspace_id: string;
  server: string;
  server_url: string;
  member_id: string | null;
  verifier_sealed: string;
  expires_at: Date;
  used_at: Date | null;
}

const toPending = (row: PendingRow): McpOAuthPendingRecord => ({
  id: row.id,
  workspaceId: row.workspace_id,
  server: row.server,
  serverUrl: row.server_url,
  memberId: row.member_id,
  sealedVerifier: row.verifier_sealed,
  expiresAt: new Date(row.expires_at),
  usedAt: row.used_at === null ? null : new Date(row.used_at),
});

/** E5: one owner's row: a member's, or the workspace's (member_id NULL). */
const OWNER = 'workspace_id = $1 AND server = $2 AND member_id IS NOT DISTINCT FROM $3::uuid';

export const mcpOAuthRepository = (manager: EntityManager): McpOAuthRepository => {
  const q = <R extends object>(sql: string, params: unknown[] = []) => queryRecords<R>(manager, sql, params);
  return {
    async tokens(workspaceId, owner) {
      const [row] = await q<{ tokens_sealed: string; expires_at: Date | null; updated_at: Date }>(
        `SELECT tokens_sealed, expires_at, updated_at FROM mcp_oauth_tokens WHERE ${OWNER}`,
        [workspaceId, owner.server, owner.memberId],
      );
      if (row === undefined) return null;
      return {
        sealed: row.tokens_sealed,
        expiresAt: row.expires_at === null ? null : new Date(row.expires_at),
        updatedAt: new Date(row.updated_at),
      };
    },
    async saveTokens(workspaceId, owner, tokens) {
      await q(
        `INSERT INTO mcp_oauth_tokens (workspace_id, server, member_id, tokens_sealed, expires_at)
         VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT ON CONSTRAINT uq_mcp_oauth_tokens_owner
         DO UPDATE SET tokens_sealed = EXCLUDED.tokens_sealed, expires_at = EXCLUDED.expires_at, updated_at = now()`,
        [workspaceId, owner.server, owner.memberId, tokens.sealed, tokens.expiresAt],
      );
    },
    async deleteTokens(workspaceId, owner, options = {}) {
      const only = options.ifSealed === undefined ? '' : ' AND tokens_sealed = $4';
      const params = [workspaceId, owner.server, owner.memberId];
      if (options.ifSealed !== undefined) params.push(options.ifSealed);
      const rows = await q(`DELETE FROM mcp_oauth_tokens WHERE ${OWNER}${only} RETURNING id`, params);
      return rows.length > 0;
    },
    async client(workspaceId, server) {
      const [row] = await q<{ client_sealed: string }>(
        'SELECT client_sealed FROM mcp_oauth_clients WHERE workspace_id = $1 AND server = $2',
        [workspaceId, server],
      );
      return row?.client_sealed ?? null;
    },
    async saveClient(workspaceId, server, sealed) {
      await q(
        `INSERT INTO mcp_oauth_clients (workspace_id, server, client_sealed) VALUES ($1, $2, $3)
         ON CONFLICT (workspace_id, server) DO UPDATE SET client_sealed = EXCLUDED.client_sealed, updated_at = now()`,
        [workspaceId, server, sealed],
      );
    },
    async deleteClient(workspaceId, server) {
      await q('DELETE FROM mcp_oauth_clients WHERE workspace_id = $1 AND server = $2', [workspaceId, server]);
    },
    async insertPending(workspaceId, fields) {
      // E5: links a day past their expiry are forgotten (until then a late one is told it expired).
      await q(`DELETE FROM mcp_oauth_pending WHERE workspace_id = $1 AND expires_at < $2`, [
        workspaceId,
        new Date(fields.expiresAt.getTime() - MCP_OAUTH_LINK_TTL_MS - 24 * 60 * 60_000),
      ]);
      await q(
        `INSERT INTO mcp_oauth_pending (workspace_id, server, server_url, member_id, state_hash, verifier_sealed, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [
          workspaceId,
          fields.server,
          fields.serverUrl,
          fields.memberId,
          fields.stateHash,
          fields.sealedVerifier,
          fields.expiresAt,
        ],
      );
    },
    async hasRecentPending(workspaceId, owner, since) {
      const rows = await q(
        `SELECT 1 FROM mcp_oauth_pending WHERE ${OWNER} AND used_at IS NULL AND expires_at > $4 LIMIT 1`,
        [workspaceId, owner.server, owner.memberId, new Date(since.getTime() + MCP_OAUTH_LINK_TTL_MS)],
      );
      return rows.length > 0;
    },
    async findPending(stateHash) {
      const [row] = await q<PendingRow>(
        `SELECT id, workspace_id, server, server_url, member_id, verifier_sealed, expires_at, used_at
           FROM mcp_oauth_pending WHERE state_hash = $1`,
        [stateHash],
      );
      return row === undefined ? null : toPending(row);
    },
    async usePending(id, at) {
      if (!isUuid(id)) return false;
      const rows = await q(
        'UPDATE mcp_oauth_pending SET used_at = $2 WHERE id = $1 AND used_at IS NULL RETURNING id',
        [id, at],
      );
      return rows.length > 0;
    },
  };
};
