import type { EntityManager } from 'typeorm';
import { ConflictError, NotFoundError } from '../../../core/errors';
import type { ChannelBindingRecord } from '../../../core/model/records';
import type { ChannelBindingRepository } from '../../../core/ports/store';
import { ChannelBindingEntity, type ChannelBindingRow, SpaceEntity } from '../../entities/space.entity';
import { isUuid } from '../ids';

export const toChannelBindingRecord = (row: ChannelBindingRow): ChannelBindingRecord => ({
  id: row.id,
  workspaceId: row.workspaceId,
  spaceId: row.spaceId,
  platform: row.platform,
  channelId: row.channelId,
});

export const channelBindingRepository = (manager: EntityManager): ChannelBindingRepository => {
  const rows = manager.getRepository(ChannelBindingEntity);
  return {
    async listForWorkspace(workspaceId) {
      if (!isUuid(workspaceId)) return [];
      const found = await rows.find({ where: { workspaceId }, order: { createdAt: 'ASC', seq: 'ASC' } });
      return found.map(toChannelBindingRecord);
    },
    async find(platform, channelId) {
      const row = await rows.findOneBy({ platform, channelId });
      return row ? toChannelBindingRecord(row) : null;
    },
    async bind(spaceId, platform, channelId) {
      const space = isUuid(spaceId)
        ? await manager.getRepository(SpaceEntity).findOneBy({ id: spaceId })
        : null;
      if (!space) throw new NotFoundError(`No space with id ${spaceId} in this workspace.`);
      // P1: a channel belongs to one space. Inside `inWorkspace` another workspace's binding is
      // invisible here; the insert below then meets uq_channel_bindings_channel: a ConflictError.
      const existing = await rows.findOneBy({ platform, channelId });
      if (existing && existing.workspaceId !== space.workspaceId) {
        throw new ConflictError('This channel is already bound to a space of another workspace.');
      }
      if (existing) {
        if (existing.spaceId !== spaceId) await rows.update({ id: existing.id }, { spaceId });
        return toChannelBindingRecord({ ...existing, spaceId });
      }
      return toChannelBindingRecord(
        await rows.save(rows.create({ workspaceId: space.workspaceId, spaceId, platform, channelId })),
      );
    },
    async unbindOthers(spaceId, keep) {
      if (!isUuid(spaceId)) return;
      await manager.query(
        `DELETE FROM channel_bindings
          WHERE space_id = $1
            AND (platform, channel_id) NOT IN (SELECT * FROM unnest($2::text[], $3::text[]))`,
        [spaceId, keep.map((k) => k.platform), keep.map((k) => k.channelId)],
      );
    },
  };
};
