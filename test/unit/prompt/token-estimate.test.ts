import { CHARS_PER_TOKEN, estimateTokens } from '../../../src/core/prompt';

describe('estimateTokens', () => {
  it.each([
    ['', 0],
    ['a', 1],
    ['abcd', 1],
    ['abcde', 2],
    ['x'.repeat(400), 100],
  ])('%j is %p tokens at four characters a token', (text, tokens) => {
    expect(CHARS_PER_TOKEN).toBe(4);
    expect(estimateTokens(text)).toBe(tokens);
  });
});
