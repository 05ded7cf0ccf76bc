import { estimateTokens } from '../../core/prompt/token-estimate';

/**
 * A4 `contextSize`: the tool loop's history is the head (system, the turn's prompt) plus one
 * exchange per tool round (the assistant message with its calls and the results answering
 * them). When the estimate exceeds the budget, the oldest exchanges are dropped whole, so a
 * call is never separated from its result; the latest exchange is always kept.
 */
export function fitExchanges<T>(
  head: readonly T[],
  exchanges: readonly (readonly T[])[],
  budgetTokens: number,
): { kept: T[][]; dropped: number } {
  const cost = (messages: readonly T[]) =>
    messages.reduce((sum, message) => sum + estimateTokens(JSON.stringify(message)), 0);
  let total = cost(head) + exchanges.reduce((sum, exchange) => sum + cost(exchange), 0);
  let start = 0;
  while (total > budgetTokens && start < exchanges.length - 1) {
    total -= cost(exchanges[start] ?? []);
    start += 1;
  }
  return { kept: exchanges.slice(start).map((exchange) => [...exchange]), dropped: start };
}

/** Told to the model in the turn's prompt when exchanges were dropped. */
export const droppedNotice = (dropped: number): string =>
  `\n\n(Note: the ${dropped} oldest tool exchange${dropped === 1 ? '' : 's'} of this turn ${dropped === 1 ? 'was' : 'were'} dropped to fit the context window.)`;
