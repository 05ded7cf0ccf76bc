import type { EntityManager } from 'typeorm';
import type { RunLaneRepository, RunPatch } from '../../../core/ports/conversation-store';
import { RunEntity } from '../../entities/run.entity';
import { isUuid } from '../ids';
import { type PreparedCall, PreparedStatement, type Statement } from '../prepared-statement';
import { hydrateAll, queryTogether, sqlLiteral, textLiteral } from '../statements-together';
import { deferUpdateById, updateByIdReturning } from '../update-by-id';
import { toRunRecord } from './run-repository';
import { usageTerms } from './usage-repository';

/** What the turn engine may change on a run: never its agent, conversation, chain or workspace. */
const RUN_PATCH_FIELDS = [
  'status',
  'liveness',
  'startedAt',
  'finishedAt',
  'lastEventAt',
  'error',
  'statusCardRef',
  'replyMessageId',
] as const satisfies readonly (keyof RunPatch)[];

const LANE_LOCK = new PreparedStatement(
  ['text', 'text'],
  "SELECT pg_advisory_xact_lock(hashtextextended('summon:run-lane:' || $1 || ':' || $2, 0))",
);

/**
 * The advisory lock of one lane, held to the end of the transaction: the same key wherever it is
 * taken (the claim, P16's steering). Prepared (T3: planned once per connection).
 */
export const laneLockStatement = (agentId: string, conversationId: string): PreparedCall =>
  LANE_LOCK.with(textLiteral(agentId), textLiteral(conversationId));

/**
 * The lane's next queued run becomes `running`, unless one of the lane already is: the lane's
 * lock, then the claim, sent together (one round trip). Under READ COMMITTED the claim reads a
 * fresh snapshot once the lock is held, so it sees whatever the previous holder committed.
 * One turn at a time per (agent, conversation): concurrent workers queue on the lock, held until
 * their transaction ends, so two of them never both find the lane free. Other lanes take other
 * locks and claim in parallel. (PGlite runs one transaction at a time.)
 */
const CLAIM_NEXT = new PreparedStatement(
  ['uuid', 'uuid', 'timestamptz'],
  `UPDATE runs SET status = 'running', started_at = $3, last_event_at = $3
    WHERE id = (
            SELECT id FROM runs
             WHERE agent_id = $1 AND conversation_id = $2 AND status = 'queued'
             ORDER BY created_at, seq
             LIMIT 1)
      AND NOT EXISTS (SELECT 1 FROM runs WHERE agent_id = $1 AND conversation_id = $2 AND status = 'running')
   RETURNING *`,
);

const claimNextStatements = (agentId: string, conversationId: string, now: Date): Statement[] => [
  laneLockStatement(agentId, conversationId),
  CLAIM_NEXT.with(sqlLiteral(agentId), sqlLiteral(conversationId), sqlLiteral(now)),
];

const HAS_QUEUED = new PreparedStatement(
  ['uuid', 'uuid'],
  "SELECT 1 AS one FROM runs WHERE agent_id = $1 AND conversation_id = $2 AND status = 'queued' LIMIT 1",
);

/**
 * T3: the condition that leads `ix_runs_live`, named by the scans of every lane's live runs
 * (recovery, the watchdog). A lane's own reads never name it: they keep to `ix_runs_lane`.
 */
export const LIVE_RUNS = "(status IN ('queued', 'running'))";

/** Every statement of a lane's lock and claim (`warm-connections.ts` prepares them at start). */
export const RUN_LANE_PREPARED: readonly PreparedStatement[] = [LANE_LOCK, CLAIM_NEXT, HAS_QUEUED];

export const runLaneRepository = (manager: EntityManager): RunLaneRepository => {
  const rows = manager.getRepository(RunEntity);
  const oldestFirst = { createdAt: 'ASC', seq: 'ASC' } as const;
  return {
    async findById(id) {
      if (!isUuid(id)) return null;
      const row = await rows.findOneBy({ id });
      return row ? toRunRecord(row) : null;
    },
    async update(id, patch) {
      // A2: a run of another workspace is hidden by row-level security: NotFoundError (T3: with
      // the transaction's next message).
      await deferUpdateById(rows, id, patch, RUN_PATCH_FIELDS, 'run');
    },
    async claimNext(agentId, conversationId, now) {
      if (!isUuid(agentId) || !isUuid(conversationId)) return null;
      const [, claimed] = await queryTogether(manager, claimNextStatements(agentId, conversationId, now));
      const [row] = hydrateAll(manager, RunEntity, claimed);
      return row ? toRunRecord(row) : null;
    },
    async updateAndRead(id, patch, usage) {
      // A2: a run of another workspace is hidden by row-level security: NotFoundError.
      const more = usage === undefined ? undefined : usageTerms(usage);
      return toRunRecord(await updateByIdReturning(rows, id, patch, RUN_PATCH_FIELDS, 'run', more));
    },
    async hasQueued(agentId, conversationId) {
      if (!isUuid(agentId) || !isUuid(conversationId)) return false;
      // T3: sent together, so that a call made with it (the finish's read-back) shares its round trip.
      const [found] = await queryTogether(manager, [
        HAS_QUEUED.with(sqlLiteral(agentId), sqlLiteral(conversationId)),
      ]);
      return (found ?? []).length > 0;
    },
    async oldestQueued(agentId, conversationId) {
      if (!isUuid(agentId) || !isUuid(conversationId)) return null;
      const row = await rows.findOne({
        where: { agentId, conversationId, status: 'queued' },
        order: oldestFirst,
        select: { id: true },
      });
      return row?.id ?? null;
    },
    async listByStatus(statuses) {
      if (statuses.length === 0) return [];
      const query = rows
        .createQueryBuilder('run')
        .where('run.status IN (:...statuses)', { statuses })
        .orderBy('run.createdAt', 'ASC')
        .addOrderBy('run.seq', 'ASC');
      // T3: live runs are found through `ix_runs_live`, which only this condition leads to.
      if (statuses.every((status) => status === 'queued' || status === 'running')) query.andWhere(LIVE_RUNS);
      return (await query.getMany()).map(toRunRecord);
    },
    async listSilentSince(before) {
      // A run that never reported an event is as silent as its start (or its creation).
      const found = await rows
        .createQueryBuilder('run')
        .where("run.status = 'running'")
        .andWhere(LIVE_RUNS)
        .andWhere('coalesce(run.lastEventAt, run.startedAt, run.createdAt) < :before', { before })
        .orderBy('run.createdAt', 'ASC')
        .addOrderBy('run.seq', 'ASC')
        .getMany();
      return found.map(toRunRecord);
    },
    async requeueIfSilent(id, before, now) {
      if (!isUuid(id)) return false;
      // A compare-and-set: under READ COMMITTED a concurrent claim or requeue of the row is
      // waited for and the condition read again, so only one process requeues it.
      const result = await rows
        .createQueryBuilder()
        .update(RunEntity)
        .set({ status: 'queued', liveness: 'ok', lastEventAt: now })
        .where('id = :id', { id })
        .andWhere("status = 'running'")
        .andWhere('coalesce(last_event_at, started_at, created_at) < :before', { before })
        .execute();
      return (result.affected ?? 0) > 0;
    },
  };
};
