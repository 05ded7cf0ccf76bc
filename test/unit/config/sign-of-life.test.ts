import { DEFAULT_SIGN_OF_LIFE_MS, parseSignOfLife } from '../../../src/config/config';

describe('SUMMON_SIGN_OF_LIFE_MS (P9, P14)', () => {
  it('P9 defaults to a few hundred milliseconds and takes 0 (shown at once)', () => {
    expect(parseSignOfLife(undefined)).toBe(DEFAULT_SIGN_OF_LIFE_MS);
    expect(DEFAULT_SIGN_OF_LIFE_MS).toBe(300);
    expect(parseSignOfLife('0')).toBe(0);
    expect(parseSignOfLife('750')).toBe(750);
  });

  it('P9 refuses what is not a whole number of milliseconds from 0 to 10000, saying so', () => {
    for (const bad of ['-1', '1.5', 'soon', '10001'])
      expect(() => parseSignOfLife(bad)).toThrow(
        `SUMMON_SIGN_OF_LIFE_MS must be a whole number of milliseconds from 0 to 10000, got "${bad}"`,
      );
  });
});
