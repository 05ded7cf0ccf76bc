import type { Spent } from '../model/usage/budget';
import type { TokenUsage } from '../model/usage/token-usage';
import type { UsageGrouping, UsageReportRow } from '../model/usage/usage-report';

/** O3: one model call's usage, and its cost when its model has a price. */
export interface UsageCall {
  model: string;
  usage: TokenUsage;
  costUsd: number | undefined;
}

/** O3: token usage and cost, stored on each run as its model calls report them. */
export interface UsageRepository {
  /** Adds one model call's usage (and its cost, when its model has a price) to its run. */
  addToRun(runId: string, call: UsageCall): Promise<void>;
  /** What the workspace's runs (of one agent, or in one space) used since `since`. */
  spent(workspaceId: string, filter: { since: Date; agentId?: string; spaceId?: string }): Promise<Spent>;
  /** O5: every token each of these runs has used so far (cached ones included), by run id. */
  tokensOfRuns(runIds: readonly string[]): Promise<Map<string, number>>;
  /** Usage since `since` grouped by agent, space or member, the largest first. */
  report(workspaceId: string, options: { by: UsageGrouping; since: Date }): Promise<UsageReportRow[]>;
}
