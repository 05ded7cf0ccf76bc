import type { RoutineOnMissed, RoutineTrigger } from '../model/routines/routine';
import { nextTime, timesBetween } from './routine-schedule';

/**
 * W3: a due time later than this when it is swept counts as missed (the deployment was down),
 * not as a firing a busy sweep reached a little late.
 */
export const MISSED_AFTER_MS = 5 * 60_000;

/** W3: how many missed times a firing's history lists at most. */
export const MISSED_LIST_LIMIT = 100;

export interface FiringPlan {
  /** W2: the firing's key with the routine: the scheduled time it stands for. */
  scheduledFor: Date;
  /** W3: the times a downtime passed (empty when on time). */
  missed: Date[];
  /** False: W3's `skip` after downtime; the firing is recorded, nothing runs. */
  fire: boolean;
  /** W2: from the stored schedule, the first time after both `now` and what this firing stands for. */
  nextDueAt: Date | null;
}

/**
 * W2, W3: what a routine due at `due` does when swept at `now`. On time, it fires for `due`.
 * After downtime (later than `MISSED_AFTER_MS`, or more than one time passed) it fires once for
 * the last passed time with `runOnce`, or not at all with `skip`; never once per missed time.
 */
export function planFiring(
  routine: { trigger: RoutineTrigger; onMissed: RoutineOnMissed },
  due: Date,
  now: Date,
): FiringPlan {
  const passed = timesBetween(routine.trigger, due, now, MISSED_LIST_LIMIT);
  const times = passed.length === 0 ? [due] : passed;
  const last = times[times.length - 1] ?? due;
  const late = times.length > 1 || now.getTime() - due.getTime() > MISSED_AFTER_MS;
  const after = new Date(Math.max(now.getTime(), last.getTime()));
  return {
    scheduledFor: late ? last : due,
    missed: late ? times : [],
    fire: !late || routine.onMissed === 'runOnce',
    nextDueAt: nextTime(routine.trigger, after),
  };
}
