import type { EntityManager, FindOptionsWhere } from 'typeorm';
import { ValidationError } from '../../../core/errors';
import type { MemberRecord } from '../../../core/model/records';
import type { MemberRepository } from '../../../core/ports/store';
import { MemberEntity, type MemberRow } from '../../entities/member.entity';
import { isUuid } from '../ids';
import { deferStatement } from '../pending-statements';
import { PreparedStatement } from '../prepared-statement';
import { sqlLiteral, textArrayLiteral, textLiteral } from '../statements-together';
import { updateById } from '../update-by-id';

/**
 * M10: `nickname` starts with `prefix` (folded, lower case), case ignored: one range of the
 * `uq_members_nickname` index (`text_pattern_ops`: byte order, whatever the collation;
 * U+10FFFF sorts after every character a nickname holds).
 */
export const nicknameStarts = (nickname: string, prefix: string): string =>
  `lower(${nickname}) ~>=~ ${prefix} AND lower(${nickname}) ~<~ (${prefix} || chr(1114111))`;

/**
 * P24, M10: an admitted person's record, owed with the transaction's next message. Most first
 * messages find their first offered nickname free: one plain insert; only when it inserted
 * nothing (the nickname taken, the record there, the account linked) does `summon_admit_member`
 * (its migration says how) try the rest and decide, in the same statement. Warmed at start (T3).
 */
export const ADMIT_MEMBER = new PreparedStatement(
  ['uuid', 'uuid', 'text', 'text', 'text', 'text', 'text', 'text[]'],
  `WITH made AS (
     INSERT INTO members (id, workspace_id, nickname, role, slack_user_id, discord_user_id,
                          access_via, access_via_name)
     VALUES ($1, $2, coalesce($8[1], 'm-' || replace($1::text, '-', '')), $3, $4, $5, $6, $7)
     ON CONFLICT DO NOTHING RETURNING id)
   SELECT CASE WHEN EXISTS (SELECT 1 FROM made) THEN NULL
               ELSE summon_admit_member($1, $2, $3, $4, $5, $6, $7, $8) END AS admitted`,
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
    async named(workspaceId, nicknames) {
      if (!isUuid(workspaceId) || nicknames.length === 0) return [];
      // M10: case ignored; one probe each of the unique nickname index.
      const found = await rows
        .createQueryBuilder('member')
        .where('member.workspaceId = :workspaceId', { workspaceId })
        .andWhere('lower(member.nickname) IN (:...folded)', {
          folded: [...new Set(nicknames.map((n) => n.toLowerCase()))],
        })
        .orderBy('member.createdAt', 'ASC')
        .addOrderBy('member.seq', 'ASC')
        .getMany();
      return found.map(toMemberRecord);
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
    async admitOwed(workspaceId, fields, nicknames) {
      if (!isUuid(workspaceId) || !isUuid(fields.id))
        throw new ValidationError(
          `Not a member or workspace id: ${JSON.stringify([fields.id, workspaceId])}.`,
        );
      await deferStatement(
        manager,
        ADMIT_MEMBER.with(
          sqlLiteral(fields.id),
          sqlLiteral(workspaceId),
          textLiteral(fields.role),
          nullableText(fields.slackUserId),
          nullableText(fields.discordUserId),
          nullableText(fields.accessVia ?? null),
          nullableText(fields.accessViaName ?? null),
          textArrayLiteral(nicknames),
        ),
      );
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
