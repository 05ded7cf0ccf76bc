import type { TokenUsage } from '../model/usage/token-usage';

/**
 * O3: list prices in US dollars per million tokens, for the models Summon knows. Written on
 * PRICES_AS_OF from the providers' published list prices (Anthropic, OpenAI); they change,
 * so check the providers' pricing pages before relying on a figure. A model that is not
 * here (a local Ollama model, an unknown name) has no price: its runs count tokens, and
 * money budgets do not count them.
 */
export const PRICES_AS_OF = '2026-12-01';

export interface ModelPrice {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

/** Matched by prefix, most specific first: `claude-sonnet-4-6-20260101` is `claude-sonnet-4`. */
const PRICES: readonly (readonly [prefix: string, price: ModelPrice])[] = [
  ['claude-opus-4-6', { input: 5, output: 25, cacheRead: 0.5, cacheWrite: 6.25 }],
  ['claude-opus-4-5', { input: 5, output: 25, cacheRead: 0.5, cacheWrite: 6.25 }],
  ['claude-opus-4', { input: 15, output: 75, cacheRead: 1.5, cacheWrite: 18.75 }],
  ['claude-sonnet-4', { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 }],
  ['claude-3-7-sonnet', { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 }],
  ['claude-haiku-4', { input: 1, output: 5, cacheRead: 0.1, cacheWrite: 1.25 }],
  ['claude-3-5-haiku', { input: 0.8, output: 4, cacheRead: 0.08, cacheWrite: 1 }],
  ['gpt-5-mini', { input: 0.25, output: 2, cacheRead: 0.025, cacheWrite: 0.25 }],
  ['gpt-5-nano', { input: 0.05, output: 0.4, cacheRead: 0.005, cacheWrite: 0.05 }],
  ['gpt-5', { input: 1.25, output: 10, cacheRead: 0.125, cacheWrite: 1.25 }],
  ['gpt-4.1-mini', { input: 0.4, output: 1.6, cacheRead: 0.1, cacheWrite: 0.4 }],
  ['gpt-4.1-nano', { input: 0.1, output: 0.4, cacheRead: 0.025, cacheWrite: 0.1 }],
  ['gpt-4.1', { input: 2, output: 8, cacheRead: 0.5, cacheWrite: 2 }],
  ['gpt-4o-mini', { input: 0.15, output: 0.6, cacheRead: 0.075, cacheWrite: 0.15 }],
  ['gpt-4o', { input: 2.5, output: 10, cacheRead: 1.25, cacheWrite: 2.5 }],
  ['o4-mini', { input: 1.1, output: 4.4, cacheRead: 0.275, cacheWrite: 1.1 }],
  ['o3-mini', { input: 1.1, output: 4.4, cacheRead: 0.55, cacheWrite: 1.1 }],
  ['o3', { input: 2, output: 8, cacheRead: 0.5, cacheWrite: 2 }],
];

export function priceOf(model: string): ModelPrice | undefined {
  const name = model.trim().toLowerCase();
  return PRICES.find(([prefix]) => name === prefix || name.startsWith(`${prefix}-`))?.[1];
}

/** O3: what a call cost in US dollars; undefined when the model has no price here. */
export function costOf(model: string, usage: TokenUsage): number | undefined {
  const price = priceOf(model);
  if (price === undefined) return undefined;
  const dollars =
    (usage.inputTokens * price.input +
      usage.outputTokens * price.output +
      usage.cacheReadTokens * price.cacheRead +
      usage.cacheWriteTokens * price.cacheWrite) /
    1_000_000;
  return Math.round(dollars * 1e10) / 1e10;
}
