import type { Budget } from '../model/usage/budget';
import type { BudgetEntry } from './workspace-file-schema';

/** O3: a workspace file's budget entry as stored (the schema has checked it). */
export function budgetOf(entry: BudgetEntry): Budget {
  const [kind, name] = entry.scope.split(':');
  const scope = kind === 'agent' || kind === 'space' ? kind : 'workspace';
  return {
    scope,
    target: scope === 'workspace' ? null : (name ?? null),
    per: entry.per,
    unit: entry.usd === undefined ? 'tokens' : 'usd',
    limit: entry.usd ?? entry.tokens ?? 0,
  };
}

/** O3: a stored budget as the workspace file writes it (`summon export`). */
export function budgetEntryOf(budget: Budget): BudgetEntry {
  const scope = budget.scope === 'workspace' ? 'workspace' : `${budget.scope}:${budget.target ?? ''}`;
  return {
    scope,
    per: budget.per,
    ...(budget.unit === 'tokens' ? { tokens: budget.limit } : { usd: budget.limit }),
  };
}

/** Field by field: jsonb gives the keys back in its own order. */
export const sameBudgets = (a: readonly Budget[], b: readonly Budget[]): boolean =>
  a.length === b.length &&
  a.every((x, i) => {
    const y = b[i];
    return (
      y !== undefined &&
      x.scope === y.scope &&
      x.target === y.target &&
      x.per === y.per &&
      x.unit === y.unit &&
      x.limit === y.limit
    );
  });
