import { EntitySchema } from 'typeorm';
import { MEMBER_ROLES } from '../../core/model/member';
import type { MemberRecord } from '../../core/model/records';
import { createdAt, creationSeq, oneOf, primaryId, text, uuid, workspaceForeignKey } from './columns';

export interface MemberRow extends MemberRecord {
  seq: string;
}

export const MemberEntity = new EntitySchema<MemberRow>({
  name: 'members',
  columns: {
    id: primaryId('members'),
    seq: creationSeq,
    // P24, A2: the key is (id, workspace_id) (migration `MemberKeyWithWorkspace`), which the
    // tenant-scoped foreign keys reference; one index where there were two.
    workspaceId: { ...uuid(), primary: true, primaryKeyConstraintName: 'pk_members' },
    nickname: text(),
    role: text(),
    slackUserId: text({ nullable: true }),
    discordUserId: text({ nullable: true }),
    accessVia: text({ nullable: true }),
    accessViaName: text({ nullable: true }),
    githubLogin: text({ nullable: true }),
    createdAt,
  },
  foreignKeys: [workspaceForeignKey('members')],
  checks: [{ name: 'ck_members_role', expression: oneOf('role', MEMBER_ROLES) }],
  indices: [
    // M10: (workspace_id, lower(nickname) text_pattern_ops): unique ignoring case, and ordered byte
    // by byte for members by a nickname's start; an expression index TypeORM cannot describe.
    { name: 'uq_members_nickname', columns: ['workspaceId'], unique: true, synchronize: false },
    // P20: (workspace_id, lower(github_login)), as the nickname's; P8, P24: this one and the two
    // below index only the accounts a member has (`WHERE … IS NOT NULL`, migration
    // `MemberAccountsPartial`), partial indexes TypeORM cannot describe.
    { name: 'uq_members_github_login', columns: ['workspaceId'], unique: true, synchronize: false },
    {
      name: 'uq_members_slack_user',
      columns: ['workspaceId', 'slackUserId'],
      unique: true,
      synchronize: false,
    },
    {
      name: 'uq_members_discord_user',
      columns: ['workspaceId', 'discordUserId'],
      unique: true,
      synchronize: false,
    },
  ],
});
