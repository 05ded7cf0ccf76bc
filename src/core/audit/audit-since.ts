import { ValidationError } from '../errors';

const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 } as const;

/**
 * O4: `summon audit --since`: a date (`2026-11-01`, midnight UTC), an ISO moment, or a duration
 * back from now (`30m`, `12h`, `7d`, `2w`). Absent: no bound (the whole log that is kept).
 */
export function parseAuditSince(text: string | undefined, now: Date): Date | undefined {
  if (text === undefined || text.trim() === '') return undefined;
  const value = text.trim();
  const back = /^(\d{1,6})([mhdw])$/.exec(value);
  if (back !== null)
    return new Date(now.getTime() - Number(back[1]) * UNIT_MS[back[2] as keyof typeof UNIT_MS]);
  const date = /^\d{4}-\d{2}-\d{2}$/.test(value) ? new Date(`${value}T00:00:00Z`) : new Date(value);
  if (/^\d{4}-\d{2}-\d{2}/.test(value) && !Number.isNaN(date.getTime())) return date;
  throw new ValidationError(
    `--since must be a date (2026-11-01), a moment (2026-11-01T09:30:00Z) or a duration back from now (30m, 12h, 7d, 2w), got "${value}"`,
    [{ path: 'since', message: 'must be a date, a moment or a duration (30m, 12h, 7d, 2w)' }],
  );
}
