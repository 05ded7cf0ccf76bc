import type { EntityManager } from 'typeorm';
import type { MemberInviteRecord, MemberInviteRepository } from '../../../core/ports/invite-store';
import { queryRecords } from '../query-records';

interface InviteDbRow {
  id: string;
  workspace_id: string;
  member_id: string;
  expires_at: Date;
  redeemed_at: Date | null;
}

const toRecord = (row: InviteDbRow): MemberInviteRecord => ({
  id: row.id,
  workspaceId: row.workspace_id,
  memberId: row.member_id,
  expiresAt: new Date(row.expires_at),
  redeemedAt: row.redeemed_at === null ? null : new Date(row.redeemed_at),
});

const COLUMNS = 'id, workspace_id, member_id, expires_at, redeemed_at';

export const memberInviteRepository = (manager: EntityManager): MemberInviteRepository => ({
  async insert(workspaceId, fields) {
    const [row] = await queryRecords<InviteDbRow>(
      manager,
      `INSERT INTO member_invites (workspace_id, member_id, code_hash, expires_at)
       VALUES ($1, $2, $3, $4) RETURNING ${COLUMNS}`,
      [workspaceId, fields.memberId, fields.codeHash, fields.expiresAt],
    );
    if (row === undefined) throw new Error('member invite insert returned no row');
    return toRecord(row);
  },
  async findByCodeHash(codeHash) {
    const [row] = await queryRecords<InviteDbRow>(
      manager,
      `SELECT ${COLUMNS} FROM member_invites WHERE code_hash = $1`,
      [codeHash],
    );
    return row === undefined ? null : toRecord(row);
  },
  async markRedeemed(id, at) {
    const rows = await queryRecords<{ id: string }>(
      manager,
      'UPDATE member_invites SET redeemed_at = $2 WHERE id = $1 AND redeemed_at IS NULL RETURNING id',
      [id, at],
    );
    return rows.length === 1;
  },
});
