/**
 * O3: a spending limit of the workspace file's `budgets`: on the whole workspace, one space or
 * one agent; in tokens (every token the model processed, cached ones included) or US dollars
 * (priced models only, see `usage/price-table.ts`); per calendar day or month in UTC.
 */
export const BUDGET_SCOPES = ['workspace', 'space', 'agent'] as const;
export type BudgetScope = (typeof BUDGET_SCOPES)[number];
export const BUDGET_PERIODS = ['day', 'month'] as const;
export type BudgetPeriod = (typeof BUDGET_PERIODS)[number];
export const BUDGET_UNITS = ['tokens', 'usd'] as const;
export type BudgetUnit = (typeof BUDGET_UNITS)[number];

export interface Budget {
  scope: BudgetScope;
  /** The space's or agent's name; null for the workspace. */
  target: string | null;
  per: BudgetPeriod;
  unit: BudgetUnit;
  limit: number;
}

/** What has been spent in a budget's scope since the start of its period. */
export interface Spent {
  tokens: number;
  usd: number;
}
