import { ValidationError } from '../../src/core/errors';
import {
  DEFAULT_PAIR_RATE_LIMIT,
  type PairRateLimit,
  type PairRateLimiter,
} from '../../src/core/ports/pair-rate-limiter';

/** Makes a limiter with no wakes counted yet (the default limit when none is given). */
export type PairRateLimiterFactory = (limit?: PairRateLimit) => PairRateLimiter;

const MINUTE = 60_000;
const T0 = Date.UTC(2025, 0, 1, 9, 0, 0);
const at = (ms: number) => new Date(T0 + ms);

/** M20's pair limit, the same for the in-memory and the Redis limiter. */
export function describePairRateLimiterContract(name: string, factory: PairRateLimiterFactory): void {
  describe(`${name}: PairRateLimiter contract (M20)`, () => {
    it('allows 5 wakes of B by A per 10 minutes by default', async () => {
      expect(DEFAULT_PAIR_RATE_LIMIT).toEqual({ max: 5, windowMs: 10 * MINUTE });
      const limiter = factory();
      const results: boolean[] = [];
      for (let n = 0; n < 6; n += 1) results.push(await limiter.tryAcquire('ws', 'a', 'b', at(n * MINUTE)));
      expect(results).toEqual([true, true, true, true, true, false]);
      // The first wake leaves the window exactly 10 minutes after it happened.
      expect(await limiter.tryAcquire('ws', 'a', 'b', at(10 * MINUTE - 1))).toBe(false);
      expect(await limiter.tryAcquire('ws', 'a', 'b', at(10 * MINUTE))).toBe(true);
      expect(await limiter.tryAcquire('ws', 'a', 'b', at(10 * MINUTE + 1))).toBe(false);
      expect(await limiter.tryAcquire('ws', 'a', 'b', at(11 * MINUTE))).toBe(true);
    });

    it('slides: a refused wake is not counted', async () => {
      const limiter = factory({ max: 2, windowMs: 1000 });
      const attempts: Array<[number, boolean]> = [
        [0, true],
        [100, true],
        [500, false],
        [999, false],
        [1000, true],
        [1050, false],
        [1100, true],
        [2000, true],
        [2099, false],
        [2100, true],
      ];
      for (const [ms, expected] of attempts) {
        expect([ms, await limiter.tryAcquire('ws', 'a', 'b', at(ms))]).toEqual([ms, expected]);
      }
    });

    it('counts each ordered pair in each workspace on its own', async () => {
      const limiter = factory({ max: 1, windowMs: MINUTE });
      expect(await limiter.tryAcquire('ws', 'a', 'b', at(0))).toBe(true);
      expect(await limiter.tryAcquire('ws', 'a', 'b', at(1))).toBe(false);
      expect(await limiter.tryAcquire('ws', 'b', 'a', at(2))).toBe(true);
      expect(await limiter.tryAcquire('ws', 'a', 'c', at(3))).toBe(true);
      expect(await limiter.tryAcquire('ws', 'c', 'b', at(4))).toBe(true);
      expect(await limiter.tryAcquire('other-ws', 'a', 'b', at(5))).toBe(true);
    });

    it('keeps ids with separators apart', async () => {
      const limiter = factory({ max: 1, windowMs: MINUTE });
      expect(await limiter.tryAcquire('w', 'a:b', 'c', at(0))).toBe(true);
      expect(await limiter.tryAcquire('w', 'a', 'b:c', at(0))).toBe(true);
      expect(await limiter.tryAcquire('w:a', 'b', 'c', at(0))).toBe(true);
    });

    it('counts wakes in the same millisecond separately', async () => {
      const limiter = factory({ max: 3, windowMs: MINUTE });
      const results = [];
      for (let n = 0; n < 4; n += 1) results.push(await limiter.tryAcquire('ws', 'a', 'b', at(0)));
      expect(results).toEqual([true, true, true, false]);
    });

    it('gives the last slot to one of many simultaneous callers', async () => {
      const limiter = factory({ max: 5, windowMs: MINUTE });
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, n) => limiter.tryAcquire('ws', 'a', 'b', at(n))),
      );
      expect(results.filter(Boolean)).toHaveLength(5);
    });

    it('refuses a limit that allows nothing or has no window', () => {
      expect(() => factory({ max: 0, windowMs: MINUTE })).toThrow(ValidationError);
      expect(() => factory({ max: 1.5, windowMs: MINUTE })).toThrow(ValidationError);
      expect(() => factory({ max: 5, windowMs: 0 })).toThrow(ValidationError);
    });
  });
}
