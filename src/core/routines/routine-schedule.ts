import { Cron } from 'croner';
import type { RoutineTrigger } from '../model/routines/routine';

/**
 * W1: the arithmetic of a routine's times, by `croner` (a maintained cron library; no cron
 * parser of our own). Every function takes the time it counts from: the core reads the clock
 * only through the `Clock` port.
 */

/** W1: why a cron expression is refused, or null. Five fields: minute hour day month weekday. */
export function cronProblem(expression: string): string | null {
  const fields = expression.trim().split(/\s+/);
  if (fields.length !== 5)
    return `must be a 5-field cron "minute hour day-of-month month day-of-week" such as "0 9 * * 1-5" (this has ${fields.length} field${fields.length === 1 ? '' : 's'})`;
  try {
    new Cron(expression, { timezone: 'UTC' });
    return null;
  } catch (error) {
    const reason = error instanceof Error ? error.message.replace(/^CronPattern: /, '') : String(error);
    return `is not a valid cron expression (${reason})`;
  }
}

/** W1: why a time zone is refused, or null; IANA names only ("Europe/Prague", "UTC"). */
export function timeZoneProblem(timeZone: string): string | null {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
    return null;
  } catch {
    return `"${timeZone}" is not a known IANA time zone (such as "Europe/Prague" or "UTC")`;
  }
}

/** W1: an ISO 8601 time with its offset ("2026-12-24T09:00:00+01:00" or "…Z"). */
export const AT_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

export function atProblem(at: string): string | null {
  if (!AT_PATTERN.test(at) || Number.isNaN(Date.parse(at)))
    return 'must be one time in ISO 8601 with its offset, such as "2026-12-24T09:00:00+01:00"';
  return null;
}

const cronOf = (cron: string, timezone: string) => new Cron(cron, { timezone });

/**
 * W2: the first `count` times the trigger fires strictly after `after`. Computed from the
 * stored schedule alone, never from when a run ended.
 */
export function nextTimes(trigger: RoutineTrigger, after: Date, count: number): Date[] {
  // W1: a webhook or GitHub delivery fires it, never a time.
  if (count <= 0 || trigger.kind === 'webhook' || trigger.kind === 'github') return [];
  if (trigger.kind === 'at') {
    const at = new Date(trigger.at);
    return at.getTime() > after.getTime() ? [at] : [];
  }
  return cronOf(trigger.cron, trigger.timezone).nextRuns(count, after);
}

/** W2: the next time strictly after `after`, or null when the trigger has none. */
export const nextTime = (trigger: RoutineTrigger, after: Date): Date | null =>
  nextTimes(trigger, after, 1)[0] ?? null;

/**
 * W3: the scheduled times in [from, to] (both inclusive), at most `limit` of them: what a
 * deployment that was down missed. The history lists them; the policy decides what fires.
 */
export function timesBetween(trigger: RoutineTrigger, from: Date, to: Date, limit: number): Date[] {
  if (trigger.kind === 'webhook' || trigger.kind === 'github') return [];
  const times: Date[] = [];
  let next: Date | null = trigger.kind === 'at' ? new Date(trigger.at) : from;
  if (trigger.kind === 'schedule') {
    // nextRun is strictly after its argument: step back a millisecond to include `from`.
    next = nextTime(trigger, new Date(from.getTime() - 1));
  }
  while (next !== null && next.getTime() <= to.getTime() && times.length < limit) {
    if (next.getTime() >= from.getTime()) times.push(next);
    if (trigger.kind !== 'schedule') break;
    next = nextTime(trigger, next);
  }
  return times;
}
