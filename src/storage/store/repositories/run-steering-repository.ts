import type { EntityManager } from 'typeorm';
import type { SteeringMessage, SteeringRepository } from '../../../core/ports/steering-store';
import { RunEntity } from '../../entities/run.entity';
import { isUuid } from '../ids';
import { PreparedStatement } from '../prepared-statement';
import { queryRecords } from '../query-records';
import { hydrateAll, queryTogether, sqlLiteral } from '../statements-together';
import { laneLockStatement } from './run-lane-repository';
import { toRunRecord } from './run-repository';

interface SteeringRow {
  id: string;
  run_id: string;
  message_id: string;
  text: string;
  nickname: string | null;
  member_id: string | null;
  created_at: Date;
}

/** The message's own text and sender, oldest first (`WHERE` given by the caller). */
const SELECT_STEERING = `
  SELECT s.id, s.run_id, s.message_id, m.text, p.nickname, m.author_member_id AS member_id, s.created_at
    FROM run_steering s
    JOIN messages m ON m.id = s.message_id
    LEFT JOIN members p ON p.id = m.author_member_id`;

const RUNNING_TURN = new PreparedStatement(
  ['uuid', 'uuid'],
  "SELECT * FROM runs WHERE agent_id = $1 AND conversation_id = $2 AND status = 'running' LIMIT 1",
);

/**
 * P16: the run's pending messages marked queued, and a run of its own queued for each, in their
 * order: as `queuedRun` makes a person's run (its agent alone in the wake chain, depth 1, its
 * sender the starter). T3: one statement, so that the transaction ending the run is one message
 * with its COMMIT whether or not there are leftovers.
 */
const QUEUE_LEFTOVERS = new PreparedStatement(
  ['timestamptz', 'uuid', 'uuid', 'uuid', 'uuid'],
  `WITH taken AS (
     UPDATE run_steering SET state = 'queued', settled_at = $1
      WHERE run_id = $2 AND state = 'pending'
     RETURNING message_id, created_at, seq),
   queued AS (
     INSERT INTO runs (workspace_id, agent_id, conversation_id, trigger_message_id, status, liveness,
                       wake_chain, depth, started_by_member_id, created_at)
     SELECT $3, $4, $5, t.message_id, 'queued', 'ok', ARRAY[$4]::uuid[], 1, m.author_member_id, $1
       FROM taken t JOIN messages m ON m.id = t.message_id
      ORDER BY t.created_at, t.seq
     RETURNING id, seq)
   SELECT id FROM queued ORDER BY seq`,
);

/** Every statement steering prepares (`warm-connections.ts` prepares them at start). */
export const STEERING_PREPARED: readonly PreparedStatement[] = [RUNNING_TURN, QUEUE_LEFTOVERS];

const toSteering = (row: SteeringRow): SteeringMessage => ({
  id: row.id,
  runId: row.run_id,
  messageId: row.message_id,
  text: row.text,
  from: row.nickname ?? 'someone',
  memberId: row.member_id,
  createdAt: new Date(row.created_at),
});

export const runSteeringRepository = (manager: EntityManager): SteeringRepository => {
  const runs = manager.getRepository(RunEntity);
  return {
    async runningTurns(conversationId) {
      if (!isUuid(conversationId)) return [];
      const found = await runs.find({
        where: { conversationId, status: 'running' },
        order: { createdAt: 'ASC', seq: 'ASC' },
      });
      return found.map(toRunRecord);
    },
    async lockRunningTurn(agentId, conversationId) {
      if (!isUuid(agentId) || !isUuid(conversationId)) return null;
      // The lane's lock, then its running turn: together, one round trip (T3).
      const [, running] = await queryTogether(manager, [
        laneLockStatement(agentId, conversationId),
        RUNNING_TURN.with(sqlLiteral(agentId), sqlLiteral(conversationId)),
      ]);
      const [row] = hydrateAll(manager, RunEntity, running);
      return row ? toRunRecord(row) : null;
    },
    async add(workspaceId, fields) {
      await queryRecords(
        manager,
        'INSERT INTO run_steering (workspace_id, run_id, message_id, created_at) VALUES ($1, $2, $3, $4)',
        [workspaceId, fields.runId, fields.messageId, fields.at],
      );
    },
    async pending(runId) {
      if (!isUuid(runId)) return [];
      const rows = await queryRecords<SteeringRow>(
        manager,
        `${SELECT_STEERING} WHERE s.run_id = $1 AND s.state = 'pending' ORDER BY s.created_at, s.seq`,
        [runId],
      );
      return rows.map(toSteering);
    },
    async markTaken(ids, at) {
      const known = ids.filter(isUuid);
      if (known.length === 0) return;
      await queryRecords(
        manager,
        `UPDATE run_steering SET state = 'taken', settled_at = $2 WHERE id = ANY($1::uuid[]) AND state = 'pending'`,
        [known, at],
      );
    },
    async queueLeftovers(run, at) {
      if (![run.id, run.workspaceId, run.agentId, run.conversationId].every(isUuid)) return [];
      // The lane's lock, then the leftovers queued: together, one round trip (T3).
      const [, rows] = await queryTogether(manager, [
        laneLockStatement(run.agentId, run.conversationId),
        QUEUE_LEFTOVERS.with(
          sqlLiteral(at),
          sqlLiteral(run.id),
          sqlLiteral(run.workspaceId),
          sqlLiteral(run.agentId),
          sqlLiteral(run.conversationId),
        ),
      ]);
      return ((rows ?? []) as { id: string }[]).map((row) => row.id);
    },
  };
};
