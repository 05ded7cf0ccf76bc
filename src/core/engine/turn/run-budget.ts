import type { Budget, Spent } from '../../model/usage/budget';
import type { RunnerEvent } from '../../ports/runner';
import { budgetsFor, isExhausted, periodStart } from '../../usage/budget';
import { costOf } from '../../usage/price-table';
import type { TurnContext } from './turn-context';
import type { TurnDeps } from './turn-deps';

/** O3: a budget that bounds a run and is used up, with what its scope spent. */
export interface BudgetBreach {
  budget: Budget;
  spent: Spent;
}

/**
 * O3: the first budget bounding this run (the workspace's, its space's, its agent's) that is
 * used up in its current period, or null. Checked before a turn starts and after each model
 * call.
 */
export async function exhaustedBudget(
  deps: Pick<TurnDeps, 'store' | 'clock'>,
  context: TurnContext,
): Promise<BudgetBreach | null> {
  const { run, space, agent } = context;
  const budgets = budgetsFor(context.budgets, space.name, agent.name);
  if (budgets.length === 0) return null;
  const now = deps.clock.now();
  return deps.store.inWorkspace(run.workspaceId, async (tx) => {
    for (const budget of budgets) {
      const spent = await tx.usage.spent(run.workspaceId, {
        since: periodStart(budget.per, now),
        ...(budget.scope === 'agent' ? { agentId: agent.id } : {}),
        ...(budget.scope === 'space' ? { spaceId: space.id } : {}),
      });
      if (isExhausted(budget, spent)) return { budget, spent };
    }
    return null;
  });
}

/** One model call's usage, as its runner reported it. */
export type UsageEvent = Extract<RunnerEvent, { type: 'usage' }>;

/** O3: a model call's usage as stored on its run, priced by the provider or the price table. */
export const usageCall = (event: UsageEvent) => ({
  model: event.model,
  usage: event.usage,
  costUsd: event.costUsd ?? costOf(event.model, event.usage),
});

/** O3: stores one model call's usage on the run. */
export async function recordUsage(
  deps: Pick<TurnDeps, 'store'>,
  context: TurnContext,
  event: UsageEvent,
): Promise<void> {
  await deps.store.inWorkspace(context.run.workspaceId, (tx) =>
    tx.usage.addToRun(context.run.id, usageCall(event)),
  );
}
