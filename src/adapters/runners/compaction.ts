import type { TokenUsage } from '../../core/model/usage/token-usage';

/**
 * A15: the instruction of the one request that summarizes a turn's older rounds (no tools may
 * be called in it). Its answer replaces those rounds in every later request.
 */
export const SUMMARY_INSTRUCTION =
  'The rounds above are about to be removed from this conversation to fit the context window. ' +
  'Write a summary of them that lets you continue the task without them: what was done (commands ' +
  'run, files read or changed, with their paths), what was found (facts, errors, decisions), and ' +
  'what is left to do. Answer with the summary only; do not call any tool.';

/** A15: how the summary is given to the model, after the turn's prompt. */
export const summaryNote = (summary: string): string =>
  `(Earlier rounds of this turn were compacted to fit the context window. Your summary of them:)\n\n${summary}`;

/** The share of the window the rounds kept after a compaction may fill. */
const KEPT_SHARE = 0.25;

/**
 * A4, A15: the agent's context window (input tokens; the answer's room is not counted) and the
 * loop's estimate of a request's size, corrected by what the provider reported for the previous
 * request (its input, cache reads and writes together).
 */
export class ContextWindow {
  private factor = 1;
  private lastEstimate = 0;

  constructor(readonly tokens: number) {}

  /** Whether a request estimated at `estimate` tokens would not fit. */
  overflows(estimate: number): boolean {
    return estimate * this.factor > this.tokens;
  }

  /** Remembers the estimate of the request about to be sent. */
  sending(estimate: number): void {
    this.lastEstimate = estimate;
  }

  /** Corrects later estimates by the provider's count of the request last sent. */
  reported(usage: TokenUsage | undefined): void {
    if (usage === undefined || this.lastEstimate <= 0) return;
    const input = usage.inputTokens + usage.cacheReadTokens + usage.cacheWriteTokens;
    if (input > 0) this.factor = input / this.lastEstimate;
  }

  /**
   * How many of the latest rounds (costs oldest first) a compaction keeps: as many as fill at
   * most a quarter of the window, at least one; fewer than all, so that something is summarized.
   */
  keptRounds(costs: readonly number[]): number {
    let kept = 0;
    let total = 0;
    for (let i = costs.length - 1; i >= 1; i--) {
      total += (costs[i] ?? 0) * this.factor;
      if (kept > 0 && total > this.tokens * KEPT_SHARE) break;
      kept += 1;
    }
    return kept;
  }
}
