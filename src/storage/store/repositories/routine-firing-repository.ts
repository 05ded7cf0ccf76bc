import type { EntityManager } from 'typeorm';
import type {
  FiringHistoryEntry,
  FiringOutcome,
  RoutineFiring,
} from '../../../core/model/routines/routine-firing';
import type { RoutineRepository } from '../../../core/ports/routine-store';
import { isUuid } from '../ids';
import { queryRecords } from '../query-records';

interface FiringRow {
  id: string;
  workspace_id: string;
  routine_id: string;
  scheduled_for: Date;
  fired_at: Date;
  missed: string[];
  outcome: FiringOutcome;
  reason: string | null;
  conversation_id: string | null;
  run_id: string | null;
  delivery_id: string | null;
}

const COLUMNS =
  'f.id, f.workspace_id, f.routine_id, f.scheduled_for, f.fired_at, f.missed, f.outcome, f.reason, f.conversation_id, f.run_id, f.delivery_id';

const firingOf = (row: FiringRow): RoutineFiring => ({
  id: row.id,
  workspaceId: row.workspace_id,
  routineId: row.routine_id,
  scheduledFor: new Date(row.scheduled_for),
  firedAt: new Date(row.fired_at),
  missed: row.missed.map((at) => new Date(at)),
  outcome: row.outcome,
  reason: row.reason,
  conversationId: row.conversation_id,
  runId: row.run_id,
  deliveryId: row.delivery_id,
});

type FiringMethods = Pick<
  RoutineRepository,
  | 'claimFiring'
  | 'updateFiring'
  | 'leaseStaleClaims'
  | 'history'
  | 'webhookSecret'
  | 'setWebhookSecret'
  | 'spentByRoutine'
  | 'ofRun'
>;

/** W2, W3: a routine's firings: the unique (routine, scheduled time) key is the claim. */
export const firingRepository = (manager: EntityManager): FiringMethods => ({
  async claimFiring(firing) {
    const [row] = await queryRecords<FiringRow>(
      manager,
      `INSERT INTO routine_firings AS f (workspace_id, routine_id, scheduled_for, fired_at, missed, outcome, reason, delivery_id)
       VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7, $8)
       ON CONFLICT DO NOTHING
       RETURNING ${COLUMNS}`,
      [
        firing.workspaceId,
        firing.routineId,
        firing.scheduledFor,
        firing.firedAt,
        JSON.stringify(firing.missed.map((at) => at.toISOString())),
        firing.outcome,
        firing.reason,
        firing.deliveryId ?? null,
      ],
    );
    return row === undefined ? null : firingOf(row);
  },
  async updateFiring(firingId, patch) {
    await queryRecords(
      manager,
      `UPDATE routine_firings SET outcome = $2, reason = coalesce($3, reason),
         conversation_id = coalesce($4::uuid, conversation_id), run_id = coalesce($5::uuid, run_id)
       WHERE id = $1`,
      [firingId, patch.outcome, patch.reason ?? null, patch.conversationId ?? null, patch.runId ?? null],
    );
  },
  async leaseStaleClaims(before, now, limit) {
    const rows = await queryRecords<FiringRow>(
      manager,
      `UPDATE routine_firings AS f SET fired_at = $2
        WHERE f.id IN (SELECT id FROM routine_firings WHERE outcome = 'claimed' AND fired_at < $1
                        ORDER BY fired_at LIMIT $3 FOR UPDATE SKIP LOCKED)
        RETURNING ${COLUMNS}`,
      [before, now, limit],
    );
    return rows.map(firingOf);
  },
  async webhookSecret(routineId) {
    if (!isUuid(routineId)) return null;
    const [row] = await queryRecords<{ webhook_secret: string | null }>(
      manager,
      'SELECT webhook_secret FROM routines WHERE id = $1',
      [routineId],
    );
    return row?.webhook_secret ?? null;
  },
  async setWebhookSecret(routineId, sealed) {
    await queryRecords(manager, 'UPDATE routines SET webhook_secret = $2 WHERE id = $1', [routineId, sealed]);
  },
  async ofRun(runId) {
    if (!isUuid(runId)) return null;
    const [row] = await queryRecords<{
      space: string;
      name: string;
      proposed_by: string | null;
      confirmed_by: string | null;
    }>(
      manager,
      `SELECT s.name AS space, r.name, r.proposed_by, r.confirmed_by FROM routine_firings f
         JOIN routines r ON r.id = f.routine_id JOIN spaces s ON s.id = r.space_id
        WHERE f.run_id = $1`,
      [runId],
    );
    if (row === undefined) return null;
    const madeBy =
      row.proposed_by === null || row.confirmed_by === null
        ? null
        : { proposedBy: row.proposed_by, confirmedBy: row.confirmed_by };
    return { space: row.space, name: row.name, madeBy };
  },
  async spentByRoutine(routineId, since) {
    if (!isUuid(routineId)) return { tokens: 0, usd: 0 };
    const [row] = await queryRecords<{ tokens: string; usd: string }>(
      manager,
      `SELECT coalesce(sum(r.input_tokens + r.output_tokens + r.cache_read_tokens + r.cache_write_tokens), 0)::text AS tokens,
              coalesce(sum(r.cost_usd), 0)::text AS usd
         FROM routine_firings f JOIN runs r ON r.id = f.run_id
        WHERE f.routine_id = $1 AND coalesce(r.started_at, r.created_at) >= $2`,
      [routineId, since],
    );
    return { tokens: Number(row?.tokens ?? 0), usd: Number(row?.usd ?? 0) };
  },
  async history(routineId, limit) {
    if (!isUuid(routineId)) return [];
    const rows = await queryRecords<FiringRow & { run_status: string | null; reply_ref: string | null }>(
      manager,
      `SELECT ${COLUMNS}, r.status AS run_status, m.platform_message_ref AS reply_ref
         FROM routine_firings f
         LEFT JOIN runs r ON r.id = f.run_id
         LEFT JOIN messages m ON m.id = r.reply_message_id
        WHERE f.routine_id = $1
        ORDER BY f.scheduled_for DESC LIMIT $2`,
      [routineId, limit],
    );
    return rows.map(
      (row): FiringHistoryEntry => ({ ...firingOf(row), runStatus: row.run_status, replyRef: row.reply_ref }),
    );
  },
});
