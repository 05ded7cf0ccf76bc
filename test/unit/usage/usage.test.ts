import { StreamJsonTranslator } from '../../../src/adapters/runners/command/stream-json-events';
import type { Budget } from '../../../src/core/model/usage/budget';
import { budgetMessage, budgetsFor, isExhausted, periodStart } from '../../../src/core/usage/budget';
import { costOf, PRICES_AS_OF, priceOf } from '../../../src/core/usage/price-table';
import { parseSince } from '../../../src/core/usage/usage-since';

const NOW = new Date('2026-12-15T13:45:00Z');

describe('O3 price table', () => {
  it('is dated and prices known models by prefix, the most specific first', () => {
    expect(PRICES_AS_OF).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(priceOf('claude-sonnet-4-6')).toEqual({ input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 });
    expect(priceOf('claude-opus-4-1-20250805')?.input).toBe(15);
    expect(priceOf('claude-opus-4-5')?.input).toBe(5);
    expect(priceOf('gpt-4o-mini-2024-07-18')?.input).toBe(0.15);
    expect(priceOf('gpt-4o')?.input).toBe(2.5);
    expect(priceOf('llama3.2:latest')).toBeUndefined();
    expect(priceOf('claude-sonnet-4x')).toBeUndefined();
  });

  it('costs a call per million tokens, each kind at its own price; an unknown model has no cost', () => {
    const usage = {
      inputTokens: 1_000_000,
      outputTokens: 100_000,
      cacheReadTokens: 10_000,
      cacheWriteTokens: 0,
    };
    expect(costOf('claude-sonnet-4-6', usage)).toBeCloseTo(3 + 1.5 + 0.003, 10);
    expect(costOf('qwen2.5', usage)).toBeUndefined();
  });
});

describe('O3 budgets', () => {
  const agentBudget: Budget = { scope: 'agent', target: 'engineer', per: 'day', unit: 'tokens', limit: 1000 };
  const spaceBudget: Budget = { scope: 'space', target: 'web', per: 'month', unit: 'usd', limit: 5 };
  const workspaceBudget: Budget = { scope: 'workspace', target: null, per: 'month', unit: 'usd', limit: 50 };

  it('count from the start of the UTC day or month', () => {
    expect(periodStart('day', NOW).toISOString()).toBe('2026-12-15T00:00:00.000Z');
    expect(periodStart('month', NOW).toISOString()).toBe('2026-12-01T00:00:00.000Z');
  });

  it('bound a run by its workspace, its space and its agent only', () => {
    const all = [agentBudget, spaceBudget, workspaceBudget];
    expect(budgetsFor(all, 'web', 'engineer')).toEqual(all);
    expect(budgetsFor(all, 'api', 'qa')).toEqual([workspaceBudget]);
  });

  it('are used up once what they count reaches the limit', () => {
    expect(isExhausted(agentBudget, { tokens: 999, usd: 100 })).toBe(false);
    expect(isExhausted(agentBudget, { tokens: 1000, usd: 0 })).toBe(true);
    expect(isExhausted(spaceBudget, { tokens: 10 ** 9, usd: 4.99 })).toBe(false);
    expect(isExhausted(spaceBudget, { tokens: 0, usd: 5 })).toBe(true);
  });

  it('say which budget, what was spent, when it resets and how to raise it', () => {
    expect(budgetMessage(spaceBudget, { tokens: 0, usd: 5.4 }, 'qa', 'start')).toBe(
      "Budget reached: the space web's budget of $5.00 a month is used up ($5.40 this month); qa's turn did not start. " +
        'It resets on the 1st of next month (UTC). To raise it, change that entry under `budgets` in the workspace file and run `summon apply`.',
    );
    expect(budgetMessage(workspaceBudget, { tokens: 0, usd: 50 }, 'qa', 'stop')).toContain(
      "the workspace's budget of $50.00 a month is used up ($50.00 this month); qa's turn stopped before its next model call",
    );
  });
});

describe('summon usage --since', () => {
  it('takes a date, days back, or defaults to the start of the month', () => {
    expect(parseSince(undefined, NOW).toISOString()).toBe('2026-12-01T00:00:00.000Z');
    expect(parseSince('2026-11-03', NOW).toISOString()).toBe('2026-11-03T00:00:00.000Z');
    expect(parseSince('7d', NOW).toISOString()).toBe('2026-12-08T13:45:00.000Z');
    expect(() => parseSince('yesterday', NOW)).toThrow(
      '--since must be a date (2026-11-01) or a number of days (7d)',
    );
    expect(() => parseSince('2026-13-45', NOW)).toThrow('--since must be');
  });
});

describe("O3: Claude Code's usage", () => {
  it("becomes a usage event from the result event, with its model and Claude Code's own cost", () => {
    const translator = new StreamJsonTranslator();
    translator.translate(JSON.stringify({ type: 'system', subtype: 'init', model: 'claude-opus-4-6' }));
    const events = translator.translate(
      JSON.stringify({
        type: 'result',
        subtype: 'success',
        is_error: false,
        result: 'Done.',
        total_cost_usd: 0.0421,
        usage: {
          input_tokens: 12,
          cache_creation_input_tokens: 3000,
          cache_read_input_tokens: 12000,
          output_tokens: 480,
        },
      }),
    );
    expect(events).toEqual([
      {
        type: 'usage',
        model: 'claude-opus-4-6',
        usage: { inputTokens: 12, outputTokens: 480, cacheReadTokens: 12000, cacheWriteTokens: 3000 },
        costUsd: 0.0421,
      },
      { type: 'final', text: 'Done.' },
    ]);
  });
});
