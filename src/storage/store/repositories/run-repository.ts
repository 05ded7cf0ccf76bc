import type { EntityManager } from 'typeorm';
import type { RunRecord } from '../../../core/model/records';
import type { NewRun, RunRepository } from '../../../core/ports/store';
import { RunEntity, type RunRow } from '../../entities/run.entity';
import { isUuid } from '../ids';
import { deferInsert, insertReturning } from '../insert-returning';

export const toRunRecord = (row: RunRow): RunRecord => ({
  id: row.id,
  workspaceId: row.workspaceId,
  agentId: row.agentId,
  conversationId: row.conversationId,
  triggerMessageId: row.triggerMessageId,
  status: row.status,
  liveness: row.liveness,
  wakeChain: [...row.wakeChain],
  depth: row.depth,
  startedByMemberId: row.startedByMemberId,
  startedByAgentId: row.startedByAgentId,
  createdAt: row.createdAt,
  startedAt: row.startedAt,
  finishedAt: row.finishedAt,
  lastEventAt: row.lastEventAt,
  error: row.error,
  statusCardRef: row.statusCardRef,
  replyMessageId: row.replyMessageId,
});

export const runRepository = (manager: EntityManager): RunRepository => {
  const rows = manager.getRepository(RunEntity);
  return {
    async recentForAgents(workspaceId, agentIds, perAgent) {
      const ids = agentIds.filter(isUuid);
      if (!isUuid(workspaceId) || ids.length === 0 || perAgent < 1) return [];
      // A12: the newest `perAgent` runs of each agent, newest first; seq orders runs created together.
      const found = await rows
        .createQueryBuilder('run')
        .where(
          `run.id IN (
            SELECT ranked.id FROM (
              SELECT r.id, row_number() OVER (PARTITION BY r.agent_id ORDER BY r.created_at DESC, r.seq DESC) AS rank
                FROM runs r
               WHERE r.workspace_id = :workspaceId AND r.agent_id = ANY(:agentIds::uuid[])
            ) ranked
            WHERE ranked.rank <= :perAgent
          )`,
          { workspaceId, agentIds: ids, perAgent: Math.floor(perAgent) },
        )
        .orderBy('run.createdAt', 'DESC')
        .addOrderBy('run.seq', 'DESC')
        .getMany();
      return found.map(toRunRecord);
    },
    async insert(run) {
      return toRunRecord(await insertReturning(manager, RunEntity, runColumns(run)));
    },
    async insertOwed(run) {
      await deferInsert(manager, RunEntity, { id: run.id, ...runColumns(run) }, 'run');
    },
  };
};

/** A new run's columns; what is not given takes its default. */
const runColumns = (run: NewRun): Partial<RunRow> => ({
  workspaceId: run.workspaceId,
  agentId: run.agentId,
  conversationId: run.conversationId,
  triggerMessageId: run.triggerMessageId,
  status: run.status,
  liveness: run.liveness,
  wakeChain: [...run.wakeChain],
  depth: run.depth,
  startedByMemberId: run.startedByMemberId,
  startedByAgentId: run.startedByAgentId,
  startedAt: run.startedAt,
  finishedAt: run.finishedAt,
  lastEventAt: run.lastEventAt,
  error: run.error,
  statusCardRef: run.statusCardRef ?? null,
  replyMessageId: run.replyMessageId ?? null,
  ...(run.createdAt ? { createdAt: run.createdAt } : {}),
});
