import type { EntityManager, FindOptionsWhere } from 'typeorm';
import type { MemberRecord } from '../../../core/model/records';
import type { MemberRepository } from '../../../core/ports/store';
import { MemberEntity, type MemberRow } from '../../entities/member.entity';
import { isUuid } from '../ids';
import { updateById } from '../update-by-id';

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
