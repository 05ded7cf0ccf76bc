import type { EntityManager } from 'typeorm';
import type { SteeringMessage, SteeringRepository } from '../../../core/ports/steering-store';
import { RunEntity } from '../../entities/run.entity';
import { isUuid } from '../ids';
import { queryRecords } from '../query-records';
import { laneLockKey } from './run-lane-repository';
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

const toSteering = (row: SteeringRow): SteeringMessage => ({
  id: row.id,
  runId: row.run_id,
  messageId: row.message_id,
  text: row.text,
  from: row.nickname ?? 'someone',
  memberId: row.member_id,
  createdAt: new Date(row.created_at),
});

/** P16: the lane lock `claimNext` takes: one look at a lane's running turn at a time. */
const lockLane = (manager: EntityManager, agentId: string, conversationId: string) =>
  manager.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [
    laneLockKey(agentId, conversationId),
  ]);

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
      await lockLane(manager, agentId, conversationId);
      const row = await runs.findOneBy({ agentId, conversationId, status: 'running' });
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
    async takeLeftovers(run, at) {
      if (!isUuid(run.id)) return [];
      await lockLane(manager, run.agentId, run.conversationId);
      const rows = await queryRecords<SteeringRow>(
        manager,
        `WITH queued AS (
           UPDATE run_steering SET state = 'queued', settled_at = $2
            WHERE run_id = $1 AND state = 'pending'
           RETURNING id)
         ${SELECT_STEERING} WHERE s.id IN (SELECT id FROM queued) ORDER BY s.created_at, s.seq`,
        [run.id, at],
      );
      return rows.map(toSteering);
    },
  };
};
