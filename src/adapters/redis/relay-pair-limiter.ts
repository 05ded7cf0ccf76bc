import type { Redis } from 'ioredis';
import type { PairRateLimiter } from '../../core/ports/pair-rate-limiter';
import { InMemoryPairRateLimiter } from '../../core/wake/in-memory-pair-rate-limiter';
import { RedisPairRateLimiter } from './redis-pair-rate-limiter';

/** R3: the window of the per-pair limit of notes from a paired relay to one agent. */
export const RELAY_RATE_WINDOW_MS = 10 * 60_000;

/**
 * R3: notes from one paired relay to one agent, `max` per 10 minutes. With Redis (REDIS_URL)
 * every process shares one count, like the wake limiter (M20); without it, the one process
 * counts in memory. The keys have their own prefix, apart from the wakes' counts.
 */
export function relayPairLimiter(
  redis: Redis | null,
  max: number,
  keyPrefix = 'summon:relay:',
): PairRateLimiter {
  const limit = { max, windowMs: RELAY_RATE_WINDOW_MS };
  return redis === null
    ? new InMemoryPairRateLimiter(limit)
    : new RedisPairRateLimiter(redis, { limit, keyPrefix });
}
