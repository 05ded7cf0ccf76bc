import type { Redis } from 'ioredis';
import { createRedisClient } from '../../../src/adapters/redis/redis-connection-options';
import {
  IDLE_KEY_MARGIN_MS,
  RedisPairRateLimiter,
} from '../../../src/adapters/redis/redis-pair-rate-limiter';
import { describePairRateLimiterContract } from '../../support/pair-rate-limiter-contract';
import { deleteKeysUnder, freshPrefix, TEST_REDIS_URL } from './redis-test-prefix';

const prefix = freshPrefix('pair-rate');
let limiters = 0;
const nextKeyPrefix = (): string => {
  limiters += 1;
  return `${prefix}:${limiters}:`;
};
let redis: Redis;
beforeAll(() => {
  redis = createRedisClient(TEST_REDIS_URL);
});
afterAll(async () => {
  await deleteKeysUnder(redis, prefix);
  await redis.quit();
});

// Each limiter gets its own key prefix: a fresh count, as the contract expects.
describePairRateLimiterContract(
  'Redis',
  (limit) =>
    new RedisPairRateLimiter(redis, {
      ...(limit === undefined ? {} : { limit }),
      keyPrefix: nextKeyPrefix(),
    }),
);

describe('Redis pair rate limiter keys', () => {
  it('expire a window and a margin after the last wake, so a slow caller keeps its count', async () => {
    const keyPrefix = `${prefix}:ttl:`;
    const limiter = new RedisPairRateLimiter(redis, { limit: { max: 2, windowMs: 5000 }, keyPrefix });
    expect(await limiter.tryAcquire('ws', 'a', 'b', new Date())).toBe(true);
    const [key, ...others] = await redis.keys(`${keyPrefix}*`);
    expect(others).toEqual([]);
    expect(key).toBe(`${keyPrefix}pair-wakes:ws:a:b`);
    const ttl = await redis.pttl(key ?? '');
    // Not a timing bound: the margin is a minute, the window 5 s; only a missing or window-only
    // expiry fails here.
    expect(ttl).toBeGreaterThan(5000);
    expect(ttl).toBeLessThanOrEqual(5000 + IDLE_KEY_MARGIN_MS);
  });
});
