import type { RoutineRecord } from '../model/routines/routine';
import type { Spent } from '../model/usage/budget';
import type { StoreTx } from '../ports/store';
import { formatTokens, formatUsd, isExhausted, periodStart } from '../usage/budget';

/**
 * W4, O3: the sentence saying why a routine whose own budget is used up did not fire, or null
 * when it may fire. Its turns' usage counts (every run a firing of it started, this period).
 */
export async function routineBudgetRefusal(
  tx: StoreTx,
  routine: RoutineRecord,
  now: Date,
): Promise<string | null> {
  const { budget } = routine;
  if (budget === null) return null;
  const spent: Spent = await tx.routines.spentByRoutine(routine.id, periodStart(budget.per, now));
  const scoped = { scope: 'workspace' as const, target: null, ...budget };
  if (!isExhausted(scoped, spent)) return null;
  const amount = (n: number) => (budget.unit === 'tokens' ? formatTokens(n) : formatUsd(n));
  const used = amount(budget.unit === 'tokens' ? spent.tokens : spent.usd);
  const period = budget.per === 'day' ? 'today' : 'this month';
  const resets = budget.per === 'day' ? 'at midnight UTC' : 'on the 1st of next month (UTC)';
  return (
    `Routine ${routine.name} did not fire: its budget of ${amount(budget.limit)} a ${budget.per} is used up ` +
    `(${used} ${period}). It fires again after the budget resets ${resets}; to raise it, change the routine's ` +
    '`budget` in the workspace file and run `summon apply`.'
  );
}
