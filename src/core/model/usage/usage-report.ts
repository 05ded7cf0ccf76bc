import type { TokenUsage } from './token-usage';

/** O3: what `summon usage` groups runs by. */
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
