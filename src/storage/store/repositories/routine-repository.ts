import type { EntityManager } from 'typeorm';
import { NotFoundError } from '../../../core/errors';
import type {
  RoutineBudget,
  RoutineOnMissed,
  RoutineRecord,
  RoutineTrigger,
} from '../../../core/model/routines/routine';
import type { RoutineRepository } from '../../../core/ports/routine-store';
import { isUuid } from '../ids';
import { queryRecords } from '../query-records';
import { firingRepository } from './routine-firing-repository';

interface RoutineRow {
  id: string;
  workspace_id: string;
  space_id: string;
  space: string;
  agent_id: string;
  agent: string;
  name: string;
  prompt: string;
  trigger: RoutineTrigger;
  on_missed: RoutineOnMissed;
  budget: RoutineBudget | null;
  paused: boolean;
  next_due_at: Date | null;
  proposed_by: string | null;
  confirmed_by: string | null;
}

/** W1: a routine with its space's and agent's names, as every read returns it. */
export const ROUTINE_SELECT = `SELECT r.id, r.workspace_id, r.space_id, s.name AS space, r.agent_id, a.name AS agent,
       r.name, r.prompt, r.trigger, r.on_missed, r.budget, r.paused, r.next_due_at,
       r.proposed_by, r.confirmed_by
  FROM routines r JOIN spaces s ON s.id = r.space_id JOIN agents a ON a.id = r.agent_id`;

export const routineOf = (row: RoutineRow): RoutineRecord => ({
  id: row.id,
  workspaceId: row.workspace_id,
  spaceId: row.space_id,
  space: row.space,
  agentId: row.agent_id,
  agent: row.agent,
  name: row.name,
  prompt: row.prompt,
  trigger: row.trigger,
  onMissed: row.on_missed,
  budget: row.budget,
  paused: row.paused,
  nextDueAt: row.next_due_at === null ? null : new Date(row.next_due_at),
  madeBy:
    row.proposed_by === null || row.confirmed_by === null
      ? null
      : { proposedBy: row.proposed_by, confirmedBy: row.confirmed_by },
});

/** W1: names are slugs; byte order ("C") sorts them the same on every database. */
const ORDER = 'ORDER BY s.name COLLATE "C", r.name COLLATE "C"';

export const routineRepository = (manager: EntityManager): RoutineRepository => {
  const select = async (where: string, params: readonly unknown[]) =>
    (await queryRecords<RoutineRow>(manager, `${ROUTINE_SELECT} WHERE ${where} ${ORDER}`, params)).map(
      routineOf,
    );
  return {
    listForWorkspace(workspaceId) {
      if (!isUuid(workspaceId)) return Promise.resolve([]);
      return select('r.workspace_id = $1', [workspaceId]);
    },
    async save(target, spec, nextDueAt, madeBy = null) {
      // A2: the composite foreign keys refuse a space or agent of another workspace. W1: a
      // replacement (the workspace file's) keeps who made it from chat.
      const [row] = await queryRecords<{ id: string }>(
        manager,
        `INSERT INTO routines (workspace_id, space_id, agent_id, name, prompt, trigger, on_missed, budget, paused, next_due_at, proposed_by, confirmed_by)
         VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7, $8::jsonb, $9, $10, $11, $12)
         ON CONFLICT ON CONSTRAINT uq_routines_name DO UPDATE SET
           agent_id = EXCLUDED.agent_id, prompt = EXCLUDED.prompt, trigger = EXCLUDED.trigger,
           on_missed = EXCLUDED.on_missed, budget = EXCLUDED.budget, paused = EXCLUDED.paused,
           next_due_at = EXCLUDED.next_due_at
         RETURNING id`,
        [
          target.workspaceId,
          target.spaceId,
          target.agentId,
          spec.name,
          spec.prompt,
          JSON.stringify(spec.trigger),
          spec.onMissed,
          spec.budget === null ? null : JSON.stringify(spec.budget),
          spec.paused,
          nextDueAt,
          madeBy?.proposedBy ?? null,
          madeBy?.confirmedBy ?? null,
        ],
      );
      const [saved] = row === undefined ? [] : await select('r.id = $1', [row.id]);
      if (saved === undefined) throw new NotFoundError(`No space with id ${target.spaceId}.`);
      return saved;
    },
    async remove(routineId) {
      if (!isUuid(routineId)) return;
      await queryRecords(manager, 'DELETE FROM routines WHERE id = $1', [routineId]);
    },
    async findById(routineId) {
      if (!isUuid(routineId)) return null;
      return (await select('r.id = $1', [routineId]))[0] ?? null;
    },
    async lockDue(now, limit) {
      // W2: SKIP LOCKED: two workers sweeping at once share the due routines, never wait on each other.
      const rows = await queryRecords<{ id: string }>(
        manager,
        `SELECT id FROM routines WHERE NOT paused AND next_due_at <= $1
          ORDER BY next_due_at LIMIT $2 FOR UPDATE SKIP LOCKED`,
        [now, limit],
      );
      if (rows.length === 0) return [];
      return select('r.id = ANY($1::uuid[])', [rows.map((row) => row.id)]);
    },
    async earliestDue() {
      const [row] = await queryRecords<{ due: Date | null }>(
        manager,
        'SELECT min(next_due_at) AS due FROM routines WHERE NOT paused',
      );
      return row?.due == null ? null : new Date(row.due);
    },
    async lockOne(routineId) {
      if (!isUuid(routineId)) return false;
      const rows = await queryRecords<{ id: string }>(
        manager,
        'SELECT id FROM routines WHERE id = $1 FOR UPDATE',
        [routineId],
      );
      return rows.length > 0;
    },
    async setNextDue(routineId, nextDueAt) {
      await queryRecords(manager, 'UPDATE routines SET next_due_at = $2 WHERE id = $1', [
        routineId,
        nextDueAt,
      ]);
    },
    async setPaused(routineId, paused, nextDueAt) {
      await queryRecords(manager, 'UPDATE routines SET paused = $2, next_due_at = $3 WHERE id = $1', [
        routineId,
        paused,
        nextDueAt,
      ]);
    },
    ...firingRepository(manager),
  };
};
