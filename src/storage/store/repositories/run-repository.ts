import type { EntityManager } from 'typeorm';
import type { RunRecord } from '../../../core/model/records';
import type { NewRun, RunRepository } from '../../../core/ports/store';
import { RunEntity, type RunRow } from '../../entities/run.entity';
import { isUuid } from '../ids';
import { deferInsert, insertReturning } from '../insert-returning';
import { queryRecords } from '../query-records';
import { hydrateAll } from '../statements-together';

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

/**
 * A12: the newest $3 runs of each of the agents $2 in workspace $1, newest first (seq orders runs
 * created together): each agent's read through `ix_runs_agent_recent`, as far as its $3th run,
 * not every run the workspace ever had.
 */
export const RECENT_FOR_AGENTS = `SELECT * FROM runs WHERE id IN (
    SELECT recent.id FROM unnest($2::uuid[]) AS agent(id)
      CROSS JOIN LATERAL (
        SELECT r.id FROM runs r WHERE r.agent_id = agent.id AND r.workspace_id = $1
         ORDER BY r.created_at DESC, r.seq DESC LIMIT $3) AS recent)
  ORDER BY created_at DESC, seq DESC`;

export const runRepository = (manager: EntityManager): RunRepository => ({
  async recentForAgents(workspaceId, agentIds, perAgent) {
    const ids = agentIds.filter(isUuid);
    if (!isUuid(workspaceId) || ids.length === 0 || perAgent < 1) return [];
    const found = await queryRecords(manager, RECENT_FOR_AGENTS, [workspaceId, ids, Math.floor(perAgent)]);
    return hydrateAll(manager, RunEntity, found).map(toRunRecord);
  },
  async insert(run) {
    return toRunRecord(await insertReturning(manager, RunEntity, runColumns(run)));
  },
  async insertOwed(run) {
    await deferInsert(manager, RunEntity, { id: run.id, ...runColumns(run) }, 'run');
  },
});

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
