import type { EntityManager } from 'typeorm';
import type { SkillRecord } from '../../../core/model/records';
import type { SkillRepository } from '../../../core/ports/store';
import { SkillEntity, type SkillRow } from '../../entities/skill.entity';
import { isUuid } from '../ids';
import { updateById } from '../update-by-id';

export const toSkillRecord = (row: SkillRow): SkillRecord => ({
  id: row.id,
  workspaceId: row.workspaceId,
  name: row.name,
  description: row.description,
  body: row.body,
  createdAt: row.createdAt,
});

export const skillRepository = (manager: EntityManager): SkillRepository => {
  const rows = manager.getRepository(SkillEntity);
  return {
    async list(workspaceId) {
      if (!isUuid(workspaceId)) return [];
      const found = await rows.find({ where: { workspaceId }, order: { createdAt: 'ASC', seq: 'ASC' } });
      return found.map(toSkillRecord);
    },
    async findByName(workspaceId, name) {
      if (!isUuid(workspaceId)) return null;
      // A4: skill names are a case-insensitive set.
      const row = await rows
        .createQueryBuilder('skill')
        .where('skill.workspaceId = :workspaceId', { workspaceId })
        .andWhere('lower(skill.name) = lower(:name)', { name })
        .getOne();
      return row ? toSkillRecord(row) : null;
    },
    async insert(workspaceId, fields) {
      const row = rows.create({
        workspaceId,
        name: fields.name,
        description: fields.description,
        body: fields.body,
      });
      return toSkillRecord(await rows.save(row));
    },
    async update(id, patch) {
      await updateById(rows, id, patch, ['description', 'body'], 'skill');
    },
    async remove(id) {
      if (!isUuid(id)) return;
      await rows.delete({ id });
    },
  };
};
