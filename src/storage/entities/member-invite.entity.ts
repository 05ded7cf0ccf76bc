import { EntitySchema } from 'typeorm';
import {
  createdAt,
  creationSeq,
  primaryId,
  sameWorkspaceForeignKey,
  text,
  timestamp,
  uuid,
  workspaceForeignKey,
} from './columns';

/** P8: a one-time code that binds a platform account to a member; only its hash is stored. */
export interface MemberInviteRow {
  id: string;
  seq: string;
  workspaceId: string;
  memberId: string;
  codeHash: string;
  expiresAt: Date;
  redeemedAt: Date | null;
  createdAt: Date;
}

export const MemberInviteEntity = new EntitySchema<MemberInviteRow>({
  name: 'member_invites',
  columns: {
    id: primaryId('member_invites'),
    seq: creationSeq,
    workspaceId: uuid(),
    memberId: uuid(),
    codeHash: text(),
    expiresAt: timestamp(),
    redeemedAt: timestamp({ nullable: true }),
    createdAt,
  },
  foreignKeys: [
    workspaceForeignKey('member_invites'),
    sameWorkspaceForeignKey('fk_member_invites_member', 'memberId', 'members', 'CASCADE'),
  ],
  uniques: [{ name: 'uq_member_invites_code', columns: ['codeHash'] }],
});
