import type { Spent } from '../usage/budget';
import type { TokenUsage } from '../usage/token-usage';

export const USAGE_GROUPINGS = ['agent', 'space', 'member'] as const;
export type UsageGrouping = (typeof USAGE_GROUPINGS)[number];

/** One line of `summon usage`: the runs of one agent, space or member since a moment. */
export interface UsageReportRow {
  /** The agent's or space's name, the member's nickname; `(an agent)` for runs an agent started. */
  name: string;
  runs: number;
  usage: TokenUsage;
  /** US dollars of the priced calls; null when none of them had a price. */
  costUsd: number | null;
}

/** O3: token usage and cost, stored on each run as its model calls report them. */
export interface UsageRepository {
  /** Adds one model call's usage (and its cost, when its model has a price) to its run. */
  addToRun(
    runId: string,
    call: { model: string; usage: TokenUsage; costUsd: number | undefined },
  ): Promise<void>;
  /** What the workspace's runs (of one agent, or in one space) used since `since`. */
  spent(workspaceId: string, filter: { since: Date; agentId?: string; spaceId?: string }): Promise<Spent>;
  /** Usage since `since` grouped by agent, space or member, the largest first. */
  report(workspaceId: string, options: { by: UsageGrouping; since: Date }): Promise<UsageReportRow[]>;
}
