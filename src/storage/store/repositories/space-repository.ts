import type { EntityManager } from 'typeorm';
import { NotFoundError } from '../../../core/errors';
import type { ParticipantRef, SpaceFields, SpaceRecord } from '../../../core/model/records';
import type { SpaceRepository } from '../../../core/ports/store';
import {
  SpaceEntity,
  SpaceParticipantEntity,
  type SpaceParticipantRow,
  type SpaceRow,
} from '../../entities/space.entity';
import { isUuid } from '../ids';
import { queryRecords } from '../query-records';
import { updateById } from '../update-by-id';

export const toSpaceRecord = (row: SpaceRow): SpaceRecord => ({
  id: row.id,
  workspaceId: row.workspaceId,
  name: row.name,
  context: row.context,
  mode: row.mode,
  autonomy: row.autonomy,
  dedicated: row.dedicated,
  whileRunning: row.whileRunning,
  repos: [...row.repos],
  createdAt: row.createdAt,
});

const SPACE_FIELDS = [
  'name',
  'context',
  'mode',
  'autonomy',
  'dedicated',
  'whileRunning',
  'repos',
] as const satisfies readonly (keyof SpaceFields)[];

export const toParticipantRef = (row: SpaceParticipantRow): ParticipantRef =>
  row.agentId !== null
    ? { kind: 'agent', agentId: row.agentId }
    : { kind: 'member', memberId: row.memberId ?? '' };

export const spaceRepository = (manager: EntityManager): SpaceRepository => {
  const rows = manager.getRepository(SpaceEntity);
  const participants = manager.getRepository(SpaceParticipantEntity);

  /**
   * The space, locked until the transaction ends: changes to one space's participant list
   * (positions, duplicates) happen one transaction at a time. NO KEY UPDATE leaves the row's
   * key shareable, so rows that merely reference the space (conversations…) are not held up.
   */
  const lockSpace = async (spaceId: string): Promise<SpaceRow> => {
    const space = isUuid(spaceId)
      ? await rows.findOne({ where: { id: spaceId }, lock: { mode: 'for_no_key_update' } })
      : null;
    if (!space) throw new NotFoundError(`No space with id ${spaceId} in this workspace.`);
    return space;
  };

  return {
    async list(workspaceId) {
      if (!isUuid(workspaceId)) return [];
      const found = await rows.find({ where: { workspaceId }, order: { createdAt: 'ASC', seq: 'ASC' } });
      return found.map(toSpaceRecord);
    },
    async findByName(workspaceId, name) {
      if (!isUuid(workspaceId)) return null;
      const row = await rows
        .createQueryBuilder('space')
        .where('space.workspaceId = :workspaceId', { workspaceId })
        .andWhere('lower(space.name) = lower(:name)', { name })
        .getOne();
      return row ? toSpaceRecord(row) : null;
    },
    async insert(workspaceId, fields) {
      const row = rows.create({
        workspaceId,
        name: fields.name,
        context: fields.context,
        mode: fields.mode,
        autonomy: fields.autonomy,
        dedicated: fields.dedicated,
        whileRunning: fields.whileRunning,
        repos: [...fields.repos],
      });
      return toSpaceRecord(await rows.save(row));
    },
    async update(id, patch) {
      await updateById(rows, id, patch, SPACE_FIELDS, 'space');
    },
    async listParticipants(spaceId) {
      if (!isUuid(spaceId)) return [];
      const found = await participants.find({ where: { spaceId }, order: { position: 'ASC' } });
      return found.map(toParticipantRef);
    },
    async setParticipants(spaceId, list) {
      const space = await lockSpace(spaceId);
      await participants.delete({ spaceId });
      if (list.length === 0) return;
      // A2: the composite foreign keys refuse an agent or member of another workspace.
      await participants.insert(
        list.map((p, position) => ({
          workspaceId: space.workspaceId,
          spaceId,
          position,
          agentId: p.kind === 'agent' ? p.agentId : null,
          memberId: p.kind === 'member' ? p.memberId : null,
        })),
      );
    },
    async addParticipant(spaceId, participant) {
      const [column, constraint, id] =
        participant.kind === 'agent'
          ? (['agent_id', 'uq_space_participants_agent', participant.agentId] as const)
          : (['member_id', 'uq_space_participants_member', participant.memberId] as const);
      if (!isUuid(id)) throw new NotFoundError(`No ${participant.kind} with id ${id} in this workspace.`);
      // Already a participant (every mention after the first): nothing to change, so no lock
      // (T3: a lock here would make every mention in one space wait for the routing transaction
      // before it to commit).
      if (isUuid(spaceId)) {
        const present = await queryRecords<{ one: number }>(
          manager,
          `SELECT 1 AS one FROM space_participants WHERE space_id = $1 AND ${column} = $2`,
          [spaceId, id],
        );
        if (present.length > 0) return false;
      }
      const space = await lockSpace(spaceId);
      // M2: appended after the last position. The lock above orders concurrent additions; the
      // unique constraint makes a repeated one a no-op (and only that one: a position clash
      // would still fail loudly). A2: the composite foreign keys refuse another workspace's.
      const inserted = await queryRecords<{ id: string }>(
        manager,
        `INSERT INTO space_participants (workspace_id, space_id, position, ${column})
         SELECT $1, $2, coalesce(max(position) + 1, 0), $3 FROM space_participants WHERE space_id = $2
         ON CONFLICT ON CONSTRAINT ${constraint} DO NOTHING
         RETURNING id`,
        [space.workspaceId, spaceId, id],
      );
      return inserted.length === 1;
    },
  };
};
