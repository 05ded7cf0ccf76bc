import type { EntityManager } from 'typeorm';
import type { MemberRole } from '../../../core/model/member';
import type {
  ConsoleSessionRecord,
  ConsoleSessionRepository,
  ConsoleSignInVia,
} from '../../../core/ports/console-session-store';
import { queryRecords } from '../query-records';

interface SessionDbRow {
  id: string;
  workspace_id: string;
  member_id: string;
  kind: 'session' | 'link';
  csrf_token: string;
  role: MemberRole;
  via: ConsoleSignInVia;
  created_at: Date;
  expires_at: Date;
  revoked_at: Date | null;
}

const toRecord = (row: SessionDbRow): ConsoleSessionRecord => ({
  id: row.id,
  workspaceId: row.workspace_id,
  memberId: row.member_id,
  kind: row.kind,
  csrfToken: row.csrf_token,
  role: row.role,
  via: row.via,
  createdAt: new Date(row.created_at),
  expiresAt: new Date(row.expires_at),
  revokedAt: row.revoked_at === null ? null : new Date(row.revoked_at),
});

const COLUMNS =
  'id, workspace_id, member_id, kind, csrf_token, role, via, created_at, expires_at, revoked_at';

/** O5: the web console's sessions and sign-in links (raw SQL, like the member tokens). */
export const consoleSessionRepository = (manager: EntityManager): ConsoleSessionRepository => ({
  async insert(workspaceId, fields) {
    const [row] = await queryRecords<SessionDbRow>(
      manager,
      `INSERT INTO console_sessions (workspace_id, member_id, kind, token_hash, csrf_token, role, via, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING ${COLUMNS}`,
      [
        workspaceId,
        fields.memberId,
        fields.kind,
        fields.tokenHash,
        fields.csrfToken,
        fields.role,
        fields.via,
        fields.expiresAt,
      ],
    );
    if (row === undefined) throw new Error('console session insert returned no row');
    return toRecord(row);
  },
  async findByHash(tokenHash) {
    const [row] = await queryRecords<SessionDbRow>(
      manager,
      `SELECT ${COLUMNS} FROM console_sessions WHERE token_hash = $1`,
      [tokenHash],
    );
    return row === undefined ? null : toRecord(row);
  },
  async revoke(id, at) {
    const rows = await queryRecords<{ id: string }>(
      manager,
      'UPDATE console_sessions SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL RETURNING id',
      [id, at],
    );
    return rows.length === 1;
  },
  async revokeForMember(memberId, at) {
    const rows = await queryRecords<{ id: string }>(
      manager,
      'UPDATE console_sessions SET revoked_at = $2 WHERE member_id = $1 AND revoked_at IS NULL RETURNING id',
      [memberId, at],
    );
    return rows.length;
  },
});
