/**
 * How an agent's free-text `effort` (A4: "reasoning level in the chosen model's vocabulary")
 * becomes an extended-thinking budget on the Anthropic Messages API.
 *
 * | effort   | budget_tokens |
 * |----------|---------------|
 * | `low`    | 1024          |
 * | `medium` | 4096          |
 * | `high`   | 16000         |
 *
 * Matching ignores case and surrounding spaces. Any other value (or none) sends no
 * `thinking` at all. The API requires 1024 ≤ budget < max_tokens, and the budget counts
 * against `max_tokens`:
 * - with no configured `maxTokens`, the call asks for `budget + 8192` tokens, so the answer
 *   keeps its usual room (see `anthropicTokenPlan`);
 * - with a configured `maxTokens` (a hard ceiling), the budget is lowered to at most half of
 *   it, and if that falls below 1024 thinking is left off.
 */
export const ANTHROPIC_THINKING_BUDGETS: Readonly<Record<string, number>> = {
  low: 1024,
  medium: 4096,
  high: 16000,
};

/** The API's smallest thinking budget. */
export const ANTHROPIC_MIN_THINKING_BUDGET = 1024;

/** What one call asks for: `max_tokens` and the thinking budget (undefined = no thinking). */
export interface AnthropicTokenPlan {
  maxTokens: number;
  thinkingBudget: number | undefined;
}

/** Room for the answer itself: `max_tokens` without thinking, added to the budget with it. */
export const ANTHROPIC_ANSWER_TOKENS = 8192;

/** `max_tokens` and the thinking budget for an effort, given an optional configured ceiling. */
export function anthropicTokenPlan(effort: string | null, configuredMaxTokens?: number): AnthropicTokenPlan {
  const wanted = effort === null ? undefined : ANTHROPIC_THINKING_BUDGETS[effort.trim().toLowerCase()];
  if (configuredMaxTokens === undefined) {
    return wanted === undefined
      ? { maxTokens: ANTHROPIC_ANSWER_TOKENS, thinkingBudget: undefined }
      : { maxTokens: ANTHROPIC_ANSWER_TOKENS + wanted, thinkingBudget: wanted };
  }
  if (wanted === undefined) return { maxTokens: configuredMaxTokens, thinkingBudget: undefined };
  const budget = Math.min(wanted, Math.floor(configuredMaxTokens / 2));
  return {
    maxTokens: configuredMaxTokens,
    thinkingBudget: budget >= ANTHROPIC_MIN_THINKING_BUDGET ? budget : undefined,
  };
}
