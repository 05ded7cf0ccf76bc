import type { EntityManager } from 'typeorm';
import type {
  CheckpointAwait,
  RunCheckpointRecord,
  RunCheckpoints,
  TurnCheckpoint,
  TurnCheckpointRound,
} from '../../../core/ports/run-checkpoints';
import { RunCheckpointEntity, type RunCheckpointRow } from '../../entities/run-checkpoint.entity';
import { isUuid } from '../ids';
import { deferStatement } from '../pending-statements';
import { PreparedStatement } from '../prepared-statement';
import { queryRecords } from '../query-records';
import { sqlLiteral } from '../statements-together';

/** T2: a finished turn's checkpoint removed ($1 the run). Prepared (T3: every turn's finish sends it). */
export const REMOVE_CHECKPOINT = new PreparedStatement(
  ['uuid'],
  'DELETE FROM run_checkpoints WHERE run_id = $1',
);

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * T2: the stored checkpoint, read defensively: a row written by hand or by another version
 * yields an empty transcript of format `unknown` (which no runner resumes), never a crash.
 */
export const toTurnCheckpoint = (value: unknown): TurnCheckpoint => {
  const stored = isRecord(value) ? value : {};
  const round = isRecord(stored.round) ? stored.round : null;
  return {
    format: typeof stored.format === 'string' ? stored.format : 'unknown',
    exchanges: Array.isArray(stored.exchanges)
      ? stored.exchanges.filter((exchange): exchange is unknown[] => Array.isArray(exchange))
      : [],
    round:
      round === null || !Array.isArray(round.calls)
        ? null
        : {
            assistant: round.assistant,
            calls: round.calls as TurnCheckpointRound['calls'],
            outcomes: Array.isArray(round.outcomes)
              ? (round.outcomes as TurnCheckpointRound['outcomes'])
              : [],
            inFlight: round.inFlight === true,
          },
    rounds: typeof stored.rounds === 'number' ? stored.rounds : 0,
    nudged: stored.nudged === true,
    // A15: the summary of the rounds a compaction replaced goes on with the turn.
    ...(typeof stored.summary === 'string' ? { summary: stored.summary } : {}),
    ...(isRecord(stored.prompt) &&
    typeof stored.prompt.system === 'string' &&
    typeof stored.prompt.prompt === 'string'
      ? { prompt: { system: stored.prompt.system, prompt: stored.prompt.prompt } }
      : {}),
  };
};

const awaitsOf = (row: RunCheckpointRow): CheckpointAwait | null =>
  (row.awaitsKind === 'question' || row.awaitsKind === 'run') && row.awaitsId !== null
    ? { kind: row.awaitsKind, id: row.awaitsId, until: row.awaitsUntil }
    : null;

export const toCheckpointRecord = (row: RunCheckpointRow): RunCheckpointRecord => ({
  runId: row.runId,
  workspaceId: row.workspaceId,
  checkpoint: toTurnCheckpoint(row.checkpoint),
  step: row.step,
  statusCardRef: row.statusCardRef,
  approvalId: row.approvalId,
  awaits: awaitsOf(row),
  parkedAt: row.parkedAt,
  updatedAt: row.updatedAt,
});

/** One row per run: a new boundary replaces the checkpoint and clears the waits and the park. */
const SAVE = `
  INSERT INTO run_checkpoints (run_id, workspace_id, checkpoint, step, status_card_ref, approval_id, parked_at, updated_at)
  VALUES ($1, $2, $3::jsonb, 1, $4, NULL, NULL, $5)
  ON CONFLICT (run_id) DO UPDATE
     SET checkpoint = EXCLUDED.checkpoint, step = run_checkpoints.step + 1,
         status_card_ref = EXCLUDED.status_card_ref, approval_id = NULL, parked_at = NULL,
         awaits_kind = NULL, awaits_id = NULL, awaits_until = NULL,
         updated_at = EXCLUDED.updated_at`;

const SET_AWAITS = `
  UPDATE run_checkpoints SET awaits_kind = $2, awaits_id = $3::uuid, awaits_until = $4
   WHERE run_id = $1
  RETURNING run_id`;

const PARK = `
  UPDATE run_checkpoints SET parked_at = $2
   WHERE run_id = $1 AND (approval_id IS NOT NULL OR awaits_id IS NOT NULL) AND parked_at IS NULL
  RETURNING run_id`;

/** A compare-and-set: of two processes taking a parked turn back, one does. */
const UNPARK = `
  UPDATE run_checkpoints SET parked_at = NULL
   WHERE run_id = $1 AND parked_at IS NOT NULL
     AND ($2::uuid IS NULL OR approval_id = $2::uuid OR awaits_id = $2::uuid)
  RETURNING run_id`;

const CALLS_IN_FLIGHT = `
  SELECT run_id FROM run_checkpoints
   WHERE run_id = ANY($1::uuid[]) AND checkpoint -> 'round' ->> 'inFlight' = 'true'`;

const PARKED_AWAITING_RUN = `
  SELECT run_id FROM run_checkpoints
   WHERE awaits_kind = 'run' AND awaits_id = $1 AND parked_at IS NOT NULL`;

export const runCheckpointRepository = (manager: EntityManager): RunCheckpoints => {
  const rows = manager.getRepository(RunCheckpointEntity);
  return {
    async find(runId) {
      if (!isUuid(runId)) return null;
      const row = await rows.findOneBy({ runId });
      return row ? toCheckpointRecord(row) : null;
    },
    async save(workspaceId, fields) {
      await queryRecords(manager, SAVE, [
        fields.runId,
        workspaceId,
        JSON.stringify(fields.checkpoint),
        fields.statusCardRef,
        fields.at,
      ]);
    },
    async setApproval(runId, approvalId) {
      if (!isUuid(runId)) return;
      await queryRecords(manager, 'UPDATE run_checkpoints SET approval_id = $2 WHERE run_id = $1', [
        runId,
        approvalId,
      ]);
    },
    async setAwaits(runId, awaits) {
      if (!isUuid(runId)) return false;
      const found = await queryRecords(manager, SET_AWAITS, [
        runId,
        awaits?.kind ?? null,
        awaits?.id ?? null,
        awaits?.until ?? null,
      ]);
      return found.length > 0;
    },
    async park(runId, at) {
      if (!isUuid(runId)) return false;
      return (await queryRecords(manager, PARK, [runId, at])).length > 0;
    },
    async unpark(runId, approvalId) {
      if (!isUuid(runId)) return false;
      return (await queryRecords(manager, UNPARK, [runId, approvalId ?? null])).length > 0;
    },
    async listParkedAwaitingRun(runId) {
      if (!isUuid(runId)) return [];
      const found = await queryRecords<{ run_id: string }>(manager, PARKED_AWAITING_RUN, [runId]);
      return found.map((row) => row.run_id);
    },
    async listCallsInFlight(runIds) {
      const ids = runIds.filter(isUuid);
      if (ids.length === 0) return [];
      const found = await queryRecords<{ run_id: string }>(manager, CALLS_IN_FLIGHT, [ids]);
      return found.map((row) => row.run_id);
    },
    async remove(runId) {
      if (!isUuid(runId)) return;
      // T3: sent with the transaction's next message.
      await deferStatement(manager, REMOVE_CHECKPOINT.with(sqlLiteral(runId)));
    },
  };
};
