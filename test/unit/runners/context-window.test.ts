import { ContextWindow } from '../../../src/adapters/runners/compaction';

describe('A15: the context window of the built-in loop', () => {
  it("A15: a request overflows when its estimate, corrected by the provider's last count, exceeds contextSize", () => {
    const window = new ContextWindow(10_000);
    expect(window.overflows(9_000)).toBe(false);
    // the provider counted half again as many tokens as estimated (cache reads and writes included)
    window.sending(6_000);
    window.reported({
      inputTokens: 1_000,
      cacheReadTokens: 6_000,
      cacheWriteTokens: 2_000,
      outputTokens: 50,
    });
    expect(window.overflows(6_000)).toBe(false);
    expect(window.overflows(7_000)).toBe(true);
    // a call that reported no usage leaves the correction as it was
    window.reported(undefined);
    expect(window.overflows(7_000)).toBe(true);
  });

  it('A15: a compaction keeps the latest rounds that fill a quarter of the window, at least one, never all', () => {
    const window = new ContextWindow(8_000);
    expect(window.keptRounds([1_000, 1_000, 1_000, 1_000, 1_000])).toBe(2);
    expect(window.keptRounds([1_000, 5_000])).toBe(1);
    expect(window.keptRounds([100, 100, 100])).toBe(2);
    expect(window.keptRounds([3_000])).toBe(0);
  });
});
