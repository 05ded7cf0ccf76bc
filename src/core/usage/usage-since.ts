import { ValidationError } from '../errors';
import { periodStart } from './budget';

/**
 * `summon usage --since`: a date (`2026-11-01`, midnight UTC), an ISO moment, or a number of
 * days back (`7d`: seven days before now). Absent: the start of this month (UTC), as budgets
 * per month count.
 */
export function parseSince(text: string | undefined, now: Date): Date {
  if (text === undefined || text.trim() === '') return periodStart('month', now);
  const value = text.trim();
  const days = /^(\d{1,4})d$/.exec(value);
  if (days !== null) return new Date(now.getTime() - Number(days[1]) * 86_400_000);
  const date = /^\d{4}-\d{2}-\d{2}$/.test(value) ? new Date(`${value}T00:00:00Z`) : new Date(value);
  if (/^\d{4}-\d{2}-\d{2}/.test(value) && !Number.isNaN(date.getTime())) return date;
  throw new ValidationError(`--since must be a date (2026-11-01) or a number of days (7d), got "${value}"`, [
    { path: 'since', message: 'must be a date (2026-11-01) or a number of days (7d)' },
  ]);
}
