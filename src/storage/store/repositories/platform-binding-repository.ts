import type { EntityManager } from 'typeorm';
import { ConflictError, NotFoundError } from '../../../core/errors';
import type { PlatformBindingRecord } from '../../../core/model/records';
import type { PlatformBindingRepository } from '../../../core/ports/store';
import { PlatformBindingEntity, type PlatformBindingRow } from '../../entities/workspace.entity';
import { isUuid } from '../ids';

export const toPlatformBindingRecord = (row: PlatformBindingRow): PlatformBindingRecord => ({
  id: row.id,
  workspaceId: row.workspaceId,
  platform: row.platform,
  externalId: row.externalId,
});

export const platformBindingRepository = (manager: EntityManager): PlatformBindingRepository => {
  const rows = manager.getRepository(PlatformBindingEntity);
  return {
    async listForWorkspace(workspaceId) {
      if (!isUuid(workspaceId)) return [];
      const found = await rows.find({ where: { workspaceId }, order: { createdAt: 'ASC', seq: 'ASC' } });
      return found.map(toPlatformBindingRecord);
    },
    async find(platform, externalId) {
      const row = await rows.findOneBy({ platform, externalId });
      return row ? toPlatformBindingRecord(row) : null;
    },
    async bind(workspaceId, platform, externalId) {
      if (!isUuid(workspaceId)) throw new NotFoundError(`No workspace with id ${workspaceId}.`);
      // P1: a team/guild belongs to exactly one workspace; moving it is an explicit unbind, not a side effect.
      const existing = await rows.findOneBy({ platform, externalId });
      if (existing && existing.workspaceId !== workspaceId) {
        const what = platform === 'slack' ? 'Slack team' : 'Discord guild';
        throw new ConflictError(`This ${what} is already bound to another workspace.`);
      }
      if (existing) return toPlatformBindingRecord(existing);
      // The workspace's earlier team/guild on this platform is replaced.
      await rows.delete({ workspaceId, platform });
      return toPlatformBindingRecord(await rows.save(rows.create({ workspaceId, platform, externalId })));
    },
  };
};
