import type { EntityManager } from 'typeorm';
import { NotFoundError } from '../../../core/errors';
import type { GitPushRecord, RefUpdate } from '../../../core/model/git-gateway';
import type { GitPushRepository } from '../../../core/ports/git-gateway-store';
import { GitPushEntity, type GitPushRow } from '../../entities/git-push.entity';
import { isUuid } from '../ids';

/** Read defensively: only well-formed updates come back. */
const toUpdates = (value: unknown): RefUpdate[] =>
  Array.isArray(value)
    ? value.flatMap((u: unknown) => {
        if (typeof u !== 'object' || u === null) return [];
        const { oldId, newId, ref } = u as Record<string, unknown>;
        return typeof oldId === 'string' && typeof newId === 'string' && typeof ref === 'string'
          ? [{ oldId, newId, ref }]
          : [];
      })
    : [];

const toRecord = (row: GitPushRow): GitPushRecord => ({
  id: row.id,
  workspaceId: row.workspaceId,
  runId: row.runId,
  repo: row.repo,
  updates: toUpdates(row.updates),
  decision: row.decision,
  status: row.status,
  approvalId: row.approvalId,
  reason: row.reason,
  createdAt: row.createdAt,
  finishedAt: row.finishedAt,
});

export const gitPushRepository = (manager: EntityManager): GitPushRepository => {
  const rows = manager.getRepository(GitPushEntity);
  return {
    async insert(workspaceId, fields) {
      if (!isUuid(fields.runId)) throw new NotFoundError(`No run with id ${fields.runId} in this workspace.`);
      const row = rows.create({
        workspaceId,
        runId: fields.runId,
        repo: fields.repo,
        updates: fields.updates.map(({ oldId, newId, ref }) => ({ oldId, newId, ref })),
        decision: fields.decision,
        status: fields.status,
        approvalId: fields.approvalId,
        reason: fields.reason,
        finishedAt: null,
      });
      return toRecord(await rows.save(row));
    },
    async setStatus(id, change, from) {
      if (!isUuid(id)) return null;
      const values = {
        status: change.status,
        ...(change.reason === undefined ? {} : { reason: change.reason }),
        ...(change.approvalId === undefined ? {} : { approvalId: change.approvalId }),
        ...(change.finishedAt === undefined ? {} : { finishedAt: change.finishedAt }),
      };
      // Compare-and-set: two identical pushes cannot both use one abandoned push's approval.
      const result = await rows.update(from === undefined ? { id } : { id, status: from }, values);
      if (!result.affected) return null;
      return toRecord(await rows.findOneByOrFail({ id }));
    },
    async listAbandoned(runId, repo) {
      if (!isUuid(runId)) return [];
      const found = await rows.find({
        where: { runId, repo, status: 'abandoned' },
        order: { createdAt: 'DESC', seq: 'DESC' },
      });
      return found.filter((row) => row.approvalId !== null).map(toRecord);
    },
    async listRecent(limit) {
      const found = await rows.find({ order: { createdAt: 'DESC', seq: 'DESC' }, take: limit });
      return found.map(toRecord);
    },
    async listWaitingForRun(runId) {
      if (!isUuid(runId)) return [];
      const found = await rows.find({
        where: { runId, status: 'waiting' },
        order: { createdAt: 'ASC', seq: 'ASC' },
      });
      return found.map(toRecord);
    },
    async listWaiting() {
      const found = await rows.find({
        where: { status: 'waiting' },
        order: { createdAt: 'ASC', seq: 'ASC' },
      });
      return found.map(toRecord);
    },
  };
};
