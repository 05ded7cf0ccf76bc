import type { AuditActor, AuditEntry, AuditPlace } from '../model/audit/audit-event';
import type { RoutineRecord } from '../model/routines/routine';

/** W1, W5: what happened to a routine outside the workspace file (`summon apply` records its own). */
export type RoutineAuditChange = 'created' | 'pause' | 'resume' | 'run' | 'delete';

/**
 * O4: a routine confirmed from chat, paused, resumed, run now or deleted, recorded in the
 * transaction of the change (`tx.audit.append`).
 */
export const routineChanged = (
  routine: Pick<RoutineRecord, 'id' | 'space' | 'name' | 'agent'>,
  change: RoutineAuditChange,
  actor: AuditActor,
  where: AuditPlace,
  facts: Readonly<Record<string, string>> = {},
): AuditEntry => ({
  kind: 'routine_changed',
  actor,
  subject: `routine ${routine.space}/${routine.name}`,
  where,
  detail: { routineId: routine.id, change, agent: routine.agent, ...facts },
});
