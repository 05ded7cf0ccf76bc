import { ConflictError, NotFoundError } from '../errors';
import type { AuditActor, AuditPlace } from '../model/audit/audit-event';
import type { RoutineRecord } from '../model/routines/routine';
import type { FiringHistoryEntry } from '../model/routines/routine-firing';
import type { StoreTx } from '../ports/store';
import { routineChanged } from './routine-audit';
import { nextTime } from './routine-schedule';
import { triggerInWords } from './routine-words';

/** W5: a routine as `summon routines list` and `/summon routines` show it. */
export interface RoutineOverview {
  space: string;
  name: string;
  agent: string;
  trigger: string;
  paused: boolean;
  nextDueAt: Date | null;
  /** The newest firing, or null when it never fired. */
  last: FiringHistoryEntry | null;
}

/** W5: a space's routines (or the workspace's, without a space), each with its last firing. */
export async function listRoutines(
  tx: StoreTx,
  workspaceId: string,
  space: string | null,
): Promise<RoutineOverview[]> {
  const routines = (await tx.routines.listForWorkspace(workspaceId)).filter(
    (r) => space === null || r.space === space,
  );
  const out: RoutineOverview[] = [];
  for (const routine of routines) {
    const [last] = await tx.routines.history(routine.id, 1);
    out.push({
      space: routine.space,
      name: routine.name,
      agent: routine.agent,
      trigger: triggerInWords(routine.trigger),
      paused: routine.paused,
      nextDueAt: routine.paused ? null : routine.nextDueAt,
      last: last ?? null,
    });
  }
  return out;
}

/** W5: the last result in words: `started (succeeded)`, `skipped (missed 3)`, `failed: …`. */
export function lastResultInWords(last: FiringHistoryEntry | null): string {
  if (last === null) return 'never fired';
  // W1, W5: a delivery's firing names the delivery, so it can be found in GitHub's or the sender's log.
  const when = `${last.scheduledFor.toISOString()}${last.deliveryId === null ? '' : `, delivery ${last.deliveryId}`}`;
  if (last.outcome === 'started') return `${last.runStatus ?? 'started'} (${when})`;
  if (last.outcome === 'failed' || last.outcome === 'over_budget')
    return `${last.outcome.replace('_', ' ')}: ${last.reason ?? ''} (${when})`;
  const missed = last.missed.length > 0 ? `, missed ${last.missed.length}` : '';
  return `${last.outcome}${missed} (${when})`;
}

/** W5: `<space>/<routine>`, or `<routine>` when `space` is given (the channel's space). */
export async function findRoutine(
  tx: StoreTx,
  workspaceId: string,
  ref: string,
  space: string | null = null,
): Promise<RoutineRecord> {
  const [first, second] = ref.split('/');
  const [spaceName, name] = second === undefined ? [space, first] : [first, second];
  const routines = await tx.routines.listForWorkspace(workspaceId);
  const found = routines.find((r) => r.name === name && (spaceName === null || r.space === spaceName));
  if (found !== undefined) return found;
  const names = routines
    .filter((r) => spaceName === null || r.space === spaceName)
    .map((r) => `${r.space}/${r.name}`);
  throw new NotFoundError(
    `There is no routine "${ref}"${second === undefined && spaceName !== null ? ` in space "${spaceName}"` : ''} (routines: ${names.join(', ') || 'none'}).`,
  );
}

export type RoutineChange = 'pause' | 'resume' | 'run' | 'delete';

/**
 * W5: pause (fires nothing), resume (next time counted from now: what fell due while paused is
 * not missed, W3), run now (due now: the next sweep fires it, once, W2), delete (with its history).
 * O4: each writes an audit row. Returns the sentence to show.
 */
export async function changeRoutine(
  tx: StoreTx,
  routine: RoutineRecord,
  change: RoutineChange,
  now: Date,
  by: { actor: AuditActor; where: AuditPlace },
): Promise<string> {
  const said = await applyChange(tx, routine, change, now);
  // O4: recorded in the change's own transaction: rolled back with it, never without it.
  await tx.audit.append(routine.workspaceId, routineChanged(routine, change, by.actor, by.where));
  return said;
}

async function applyChange(
  tx: StoreTx,
  routine: RoutineRecord,
  change: RoutineChange,
  now: Date,
): Promise<string> {
  const label = `Routine ${routine.space}/${routine.name}`;
  if (change === 'delete') {
    await tx.routines.remove(routine.id);
    return `${label} deleted.`;
  }
  if (change === 'pause') {
    await tx.routines.setPaused(routine.id, true, routine.nextDueAt);
    return `${label} paused; it fires nothing until resumed.`;
  }
  if (change === 'resume') {
    const next = nextTime(routine.trigger, now);
    await tx.routines.setPaused(routine.id, false, next);
    return `${label} resumed; next ${next === null ? 'on its trigger' : `at ${next.toISOString()}`}.`;
  }
  if (routine.paused) throw new ConflictError(`${label} is paused; resume it first.`);
  await tx.routines.setNextDue(routine.id, now);
  return `${label} is due now: a process that runs turns fires it within half a minute.`;
}
