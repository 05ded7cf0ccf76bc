import type { EntityManager } from 'typeorm';
import type { MemberTokenRecord, MemberTokenRepository } from '../../../core/ports/member-token-store';
import { queryRecords } from '../query-records';

interface TokenDbRow {
  id: string;
  workspace_id: string;
  member_id: string;
  created_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

const date = (value: Date | null): Date | null => (value === null ? null : new Date(value));

const toRecord = (row: TokenDbRow): MemberTokenRecord => ({
  id: row.id,
  workspaceId: row.workspace_id,
  memberId: row.member_id,
  createdAt: new Date(row.created_at),
  lastUsedAt: date(row.last_used_at),
  revokedAt: date(row.revoked_at),
});

const COLUMNS = 'id, workspace_id, member_id, created_at, last_used_at, revoked_at';

/** E6: members' personal tokens (raw SQL: the table has no entity, like the relay tables). */
export const memberTokenRepository = (manager: EntityManager): MemberTokenRepository => ({
  async insert(workspaceId, fields) {
    const [row] = await queryRecords<TokenDbRow>(
      manager,
      `INSERT INTO member_tokens (workspace_id, member_id, token_hash)
       VALUES ($1, $2, $3) RETURNING ${COLUMNS}`,
      [workspaceId, fields.memberId, fields.tokenHash],
    );
    if (row === undefined) throw new Error('member token insert returned no row');
    return toRecord(row);
  },
  async findByHash(tokenHash) {
    const [row] = await queryRecords<TokenDbRow>(
      manager,
      `SELECT ${COLUMNS} FROM member_tokens WHERE token_hash = $1`,
      [tokenHash],
    );
    return row === undefined ? null : toRecord(row);
  },
  async markUsed(id, at) {
    await queryRecords(manager, 'UPDATE member_tokens SET last_used_at = $2 WHERE id = $1', [id, at]);
  },
  async revokeForMember(memberId, at) {
    const rows = await queryRecords<{ id: string }>(
      manager,
      'UPDATE member_tokens SET revoked_at = $2 WHERE member_id = $1 AND revoked_at IS NULL RETURNING id',
      [memberId, at],
    );
    return rows.length;
  },
});
