import fc from 'fast-check';
import { ValidationError } from '../../../src/core/errors';
import {
  composePrompt,
  DEFAULT_CONTEXT_TOKENS,
  estimateTokens,
  fitHistory,
  HISTORY_SHARE,
  omittedNotice,
} from '../../../src/core/prompt';
import { agentRecord, baseInput, personSays, systemSays } from './prompt-fixtures';

const line = (chars: number, tag = 'x') => tag.repeat(chars);

describe('fitHistory: the newest whole messages that fit', () => {
  it('keeps everything that fits, with no count line', () => {
    expect(fitHistory(['a', 'b'], 10)).toEqual({ kept: ['a', 'b'], omitted: 0, notice: null });
  });

  it('drops the oldest whole messages and says how many', () => {
    const lines = [line(40, 'a'), line(40, 'b'), line(40, 'c'), line(40, 'd')];
    // The notice (for up to 4 messages) is 64 characters; two 40-character lines and their newlines fit 150.
    const window = fitHistory(lines, Math.ceil(150 / 4));
    expect(window.kept).toEqual([line(40, 'c'), line(40, 'd')]);
    expect(window.omitted).toBe(2);
    expect(window.notice).toBe('[2 earlier messages were left out to fit the context window.]');
  });

  it('never skips a long message to fit an older, shorter one', () => {
    const window = fitHistory(['old', line(400), 'new'], 30);
    expect(window.kept).toEqual(['new']);
    expect(window.omitted).toBe(2);
  });

  it('with no room, leaves out every message and says so', () => {
    expect(fitHistory(['a', 'b', 'c'], 0)).toEqual({ kept: [], omitted: 3, notice: omittedNotice(3) });
  });

  it('says "message was" for one', () => {
    expect(omittedNotice(1)).toBe('[1 earlier message was left out to fit the context window.]');
  });

  it('property: a contiguous newest suffix, counted right, within budget when cut', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ maxLength: 200 }), { maxLength: 40 }),
        fc.nat(600),
        (lines, budget) => {
          const window = fitHistory(lines, budget);
          expect(window.omitted + window.kept.length).toBe(lines.length);
          expect(window.kept).toEqual(lines.slice(window.omitted));
          expect(window.notice === null).toBe(window.omitted === 0);
          const body = [...(window.notice === null ? [] : [window.notice]), ...window.kept].join('\n');
          if (window.kept.length > 0) expect(estimateTokens(body)).toBeLessThanOrEqual(budget);
        },
      ),
    );
  });
});

describe('composePrompt: history bounded by contextSize', () => {
  it('A4: a null contextSize means the default window', () => {
    const composed = composePrompt(baseInput());
    expect(composed.history.budgetTokens).toBeLessThan(DEFAULT_CONTEXT_TOKENS * HISTORY_SHARE);
    expect(composed.history.budgetTokens).toBeGreaterThan(DEFAULT_CONTEXT_TOKENS * HISTORY_SHARE - 1_000);
  });

  it('reserves room for the rest of the prompt: a longer persona leaves less for history', () => {
    const persona = 'You test things.';
    const short = composePrompt(baseInput({ agent: agentRecord({ contextSize: 10_000, persona }) }));
    const long = composePrompt(
      baseInput({ agent: agentRecord({ contextSize: 10_000, persona: persona + 'p'.repeat(4_000) }) }),
    );
    // 4,000 more characters are 1,000 more estimated tokens, give or take the rounding.
    expect(short.history.budgetTokens - long.history.budgetTokens).toBeGreaterThanOrEqual(999);
  });

  it('the whole prompt stays within the history share when history is cut', () => {
    const history = Array.from({ length: 200 }, (_, i) =>
      personSays('dana', `message ${i} ${'z'.repeat(50)}`, i),
    );
    const composed = composePrompt(baseInput({ agent: agentRecord({ contextSize: 4_000 }), history }));
    expect(composed.history.omitted).toBeGreaterThan(0);
    const all = `${composed.system}\n\n${composed.prompt}`;
    expect(estimateTokens(all)).toBeLessThanOrEqual(4_000 * HISTORY_SHARE);
  });

  it('orders history by time, oldest first, keeping the order of equal times', () => {
    const history = [personSays('dana', 'third', 9), systemSays('first', 1), personSays('sam', 'second', 1)];
    const body = composePrompt(baseInput({ history })).sections.find((s) => s.id === 'conversation')?.body;
    expect(body).toBe('system: first\nsam (person): second\ndana (person): third');
  });

  it.each([0, -5, Number.NaN, Number.POSITIVE_INFINITY])('rejects a contextSize of %p', (contextSize) => {
    expect(() => composePrompt(baseInput({ agent: agentRecord({ contextSize }) }))).toThrow(ValidationError);
  });
});
