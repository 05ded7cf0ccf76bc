import { duration, list } from '../../../src/core/wake/wake-messages';

describe('wake messages (M21)', () => {
  it.each([
    [10 * 60 * 1000, '10 minutes'],
    [60 * 1000, 'minute'],
    [60 * 60 * 1000, 'hour'],
    [2 * 60 * 60 * 1000, '2 hours'],
    [90 * 1000, '90 seconds'],
    [1500, '1500 ms'],
  ])('states a window of %d ms as "%s"', (ms, text) => {
    expect(duration(ms)).toBe(text);
  });

  it.each([
    [[], ''],
    [['@a'], '@a'],
    [['@a', '@b'], '@a and @b'],
    [['@a', '@b', '@c'], '@a, @b and @c'],
  ])('lists %j as "%s"', (items, text) => {
    expect(list(items)).toBe(text);
  });
});
