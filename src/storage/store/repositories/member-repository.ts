import type { EntityManager, FindOptionsWhere } from 'typeorm';
import type { MemberRecord } from '../../../core/model/records';
import type { MemberRepository } from '../../../core/ports/store';
import { MemberEntity, type MemberRow } from '../../entities/member.entity';
import { isUuid } from '../ids';
import { PreparedStatement } from '../prepared-statement';
import {
  hydrateFirst,
  queryTogether,
  sqlLiteral,
  textArrayLiteral,
  textLiteral,
} from '../statements-together';
import { updateById } from '../update-by-id';

/**
 * M10: `nickname` starts with `prefix` (folded, lower case), case ignored: one range of the
 * `ix_members_nickname_prefix` index (`text_pattern_ops`: byte order, whatever the collation;
 * U+10FFFF sorts after every character a nickname holds).
 */
export const nicknameStarts = (nickname: string, prefix: string): string =>
  `lower(${nickname}) ~>=~ ${prefix} AND lower(${nickname}) ~<~ (${prefix} || chr(1114111))`;

/**
 * P24, M10: an admitted person's member row under the first of the offered nicknames ($7, in
 * order) no member has, case ignored; nothing when none is free or a row made meanwhile by
 * another transaction holds the nickname or the platform account (the caller looks again).
 */
const INSERT_UNDER_FREE_NICKNAME = new PreparedStatement(
  ['uuid', 'text', 'text', 'text', 'text', 'text', 'text[]'],
  `INSERT INTO members (workspace_id, nickname, role, slack_user_id, discord_user_id, access_via, access_via_name)
   SELECT $1, offered.nickname, $2, $3, $4, $5, $6
   FROM unnest($7::text[]) WITH ORDINALITY AS offered(nickname, position)
   WHERE NOT EXISTS (
     SELECT 1 FROM members taken WHERE taken.workspace_id = $1 AND lower(taken.nickname) = lower(offered.nickname))
   ORDER BY offered.position LIMIT 1
   ON CONFLICT DO NOTHING
   RETURNING *`,
);

const NICKNAMES_STARTING = new PreparedStatement(
  ['uuid', 'text'],
  `SELECT lower(nickname) AS nickname FROM members WHERE workspace_id = $1 AND ${nicknameStarts('nickname', '$2')}`,
);

const nullableText = (value: string | null): string => (value === null ? 'NULL' : textLiteral(value));

export const toMemberRecord = (row: MemberRow): MemberRecord => ({
  id: row.id,
  workspaceId: row.workspaceId,
  nickname: row.nickname,
  role: row.role,
  slackUserId: row.slackUserId,
  discordUserId: row.discordUserId,
  accessVia: row.accessVia ?? null,
  accessViaName: row.accessViaName ?? null,
  githubLogin: row.githubLogin ?? null,
  createdAt: row.createdAt,
});

export const memberRepository = (manager: EntityManager): MemberRepository => {
  const rows = manager.getRepository(MemberEntity);
  return {
    async list(workspaceId) {
      if (!isUuid(workspaceId)) return [];
      const found = await rows.find({ where: { workspaceId }, order: { createdAt: 'ASC', seq: 'ASC' } });
      return found.map(toMemberRecord);
    },
    async findByNickname(workspaceId, nickname) {
      if (!isUuid(workspaceId)) return null;
      // M10: nicknames match case-insensitively.
      const row = await rows
        .createQueryBuilder('member')
        .where('member.workspaceId = :workspaceId', { workspaceId })
        .andWhere('lower(member.nickname) = lower(:nickname)', { nickname })
        .getOne();
      return row ? toMemberRecord(row) : null;
    },
    async findByPlatformUser(workspaceId, platform, userId) {
      if (!isUuid(workspaceId)) return null;
      // P8: a platform account authorizes only through the member it is linked to.
      const where = ((): FindOptionsWhere<MemberRow> | null => {
        switch (platform) {
          case 'slack':
            return { workspaceId, slackUserId: userId };
          case 'discord':
            return { workspaceId, discordUserId: userId };
          default:
            return null;
        }
      })();
      // P20: GitHub logins match case-insensitively.
      if (platform === 'github') {
        const member = await rows
          .createQueryBuilder('member')
          .where('member.workspaceId = :workspaceId', { workspaceId })
          .andWhere('lower(member.githubLogin) = lower(:login)', { login: userId })
          .getOne();
        return member ? toMemberRecord(member) : null;
      }
      const row = where ? await rows.findOneBy(where) : null;
      return row ? toMemberRecord(row) : null;
    },
    async insert(workspaceId, fields) {
      const row = rows.create({
        workspaceId,
        nickname: fields.nickname,
        role: fields.role,
        slackUserId: fields.slackUserId,
        discordUserId: fields.discordUserId,
        accessVia: fields.accessVia ?? null,
        accessViaName: fields.accessViaName ?? null,
        githubLogin: fields.githubLogin ?? null,
      });
      return toMemberRecord(await rows.save(row));
    },
    async insertUnderFreeNickname(workspaceId, fields, nicknames) {
      if (!isUuid(workspaceId) || nicknames.length === 0) return null;
      const [rows] = await queryTogether(manager, [
        INSERT_UNDER_FREE_NICKNAME.with(
          sqlLiteral(workspaceId),
          textLiteral(fields.role),
          nullableText(fields.slackUserId),
          nullableText(fields.discordUserId),
          nullableText(fields.accessVia ?? null),
          nullableText(fields.accessViaName ?? null),
          textArrayLiteral(nicknames),
        ),
      ]);
      const row = hydrateFirst(manager, MemberEntity, rows);
      return row && toMemberRecord(row);
    },
    async nicknamesStartingWith(workspaceId, prefix) {
      if (!isUuid(workspaceId)) return [];
      const [rows] = await queryTogether(manager, [
        NICKNAMES_STARTING.with(sqlLiteral(workspaceId), textLiteral(prefix.toLowerCase())),
      ]);
      return (rows ?? []).map((row) => String(row.nickname));
    },
    async update(id, patch) {
      await updateById(
        rows,
        id,
        patch,
        ['role', 'slackUserId', 'discordUserId', 'githubLogin', 'accessVia', 'accessViaName'],
        'member',
      );
    },
  };
};
