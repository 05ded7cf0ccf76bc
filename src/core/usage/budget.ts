import type { Budget, BudgetPeriod, BudgetUnit, Spent } from '../model/usage/budget';

/** The first moment of the period `now` is in (UTC). */
export function periodStart(per: BudgetPeriod, now: Date): Date {
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth();
  return per === 'month'
    ? new Date(Date.UTC(year, month, 1))
    : new Date(Date.UTC(year, month, now.getUTCDate()));
}

/** The budgets that bound a run of `agent` in `space`: the workspace's, the space's, the agent's. */
export const budgetsFor = (budgets: readonly Budget[], space: string, agent: string): Budget[] =>
  budgets.filter(
    (b) =>
      b.scope === 'workspace' ||
      (b.scope === 'space' && b.target === space) ||
      (b.scope === 'agent' && b.target === agent),
  );

/** O3: a budget is used up once what it counts reaches its limit. */
export const isExhausted = (budget: Budget, spent: Spent): boolean =>
  (budget.unit === 'tokens' ? spent.tokens : spent.usd) >= budget.limit;

export const formatTokens = (n: number): string => `${Math.round(n).toLocaleString('en-US')} tokens`;
export const formatUsd = (n: number): string => `$${n.toFixed(2)}`;

const amount = (unit: BudgetUnit, n: number): string => (unit === 'tokens' ? formatTokens(n) : formatUsd(n));

/** "the agent engineer's budget of 200,000 tokens a day" */
export function describeBudget(budget: Budget): string {
  const owner =
    budget.scope === 'workspace'
      ? "the workspace's budget"
      : `the ${budget.scope} ${budget.target ?? ''}'s budget`;
  return `${owner} of ${amount(budget.unit, budget.limit)} a ${budget.per}`;
}

/**
 * O3: the system message of a turn a budget stopped or refused: which budget, what was spent,
 * when it resets, and how to raise it.
 */
export function budgetMessage(
  budget: Budget,
  spent: Spent,
  agentName: string,
  moment: 'start' | 'stop',
): string {
  const used = amount(budget.unit, budget.unit === 'tokens' ? spent.tokens : spent.usd);
  const period = budget.per === 'day' ? 'today' : 'this month';
  const resets = budget.per === 'day' ? 'at midnight UTC' : 'on the 1st of next month (UTC)';
  const what =
    moment === 'start'
      ? `${agentName}'s turn did not start`
      : `${agentName}'s turn stopped before its next model call`;
  const description = describeBudget(budget);
  return (
    `Budget reached: ${description} is used up (${used} ${period}); ${what}. ` +
    `It resets ${resets}. To raise it, change that entry under \`budgets\` in the workspace file and run \`summon apply\`.`
  );
}
