/** What an apply changed, as `kind name` entries: `agent alice`, `space backend`. */
export interface ChangeReport {
  created: string[];
  updated: string[];
}

export const emptyReport = (): ChangeReport => ({ created: [], updated: [] });

export const hasChanges = (report: ChangeReport): boolean =>
  report.created.length + report.updated.length > 0;

/** The fields of `patch` whose value differs from `current` (arrays compared by value). */
export function changedFields<T extends object>(current: T, patch: Partial<T>): Partial<T> {
  const changed: Partial<T> = {};
  for (const key of Object.keys(patch) as (keyof T)[]) {
    const next = patch[key];
    if (next !== undefined && !sameValue(current[key], next)) changed[key] = next;
  }
  return changed;
}

export function sameValue(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) && Array.isArray(b))
    return a.length === b.length && a.every((v, i) => sameValue(v, b[i]));
  if (a !== null && b !== null && typeof a === 'object' && typeof b === 'object') {
    return JSON.stringify(a) === JSON.stringify(b);
  }
  return a === b;
}
