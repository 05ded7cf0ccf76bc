import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import {
  DEFAULT_PAIR_RATE_LIMIT,
  type PairRateLimit,
  type PairRateLimiter,
} from '../../core/ports/pair-rate-limiter';
import { assertPairRateLimit } from '../../core/wake/in-memory-pair-rate-limiter';

/**
 * One sorted set per (workspace, from, to), scored by wake time. Dropping the wakes that left
 * the window, counting, and adding happen in one script, so two workers waking the same pair
 * at once cannot both take the last slot. The key's expiry only collects idle pairs: it runs
 * on Redis's clock while the scores are on the caller's, so it is a window plus a margin after
 * the last wake, never what decides a count.
 */
const ACQUIRE_SCRIPT = `
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then return 0 end
redis.call('ZADD', KEYS[1], now, ARGV[4])
redis.call('PEXPIRE', KEYS[1], window + tonumber(ARGV[5]))
return 1
`;

/** How long past its window an idle pair's key is kept (Redis's clock may run ahead of `now`). */
export const IDLE_KEY_MARGIN_MS = 60_000;

export interface RedisPairRateLimiterOptions {
  limit?: PairRateLimit;
  /** Prepended to every key; tests use a fresh one per file. */
  keyPrefix?: string;
}

/**
 * M20 with Redis: every worker shares one count per ordered pair and workspace, with the
 * sliding-window rule of `InMemoryPairRateLimiter` (a wake counts from `now` until
 * `now + windowMs`, exclusive). The clock is the `now` argument, not Redis's time, so both
 * limiters agree and tests can move time. The client belongs to the caller.
 */
export class RedisPairRateLimiter implements PairRateLimiter {
  private readonly limit: PairRateLimit;
  private readonly keyPrefix: string;

  constructor(
    private readonly redis: Redis,
    options: RedisPairRateLimiterOptions = {},
  ) {
    this.limit = options.limit ?? DEFAULT_PAIR_RATE_LIMIT;
    assertPairRateLimit(this.limit);
    this.keyPrefix = options.keyPrefix ?? 'summon:';
  }

  async tryAcquire(workspaceId: string, fromAgentId: string, toAgentId: string, now: Date): Promise<boolean> {
    // Encoded so an id containing `:` cannot make two pairs share a key.
    const key = `${this.keyPrefix}pair-wakes:${[workspaceId, fromAgentId, toAgentId].map(encodeURIComponent).join(':')}`;
    // A unique member: two wakes in the same millisecond are two wakes.
    const member = `${now.getTime()}-${randomUUID()}`;
    const acquired = await this.redis.eval(
      ACQUIRE_SCRIPT,
      1,
      key,
      now.getTime(),
      this.limit.windowMs,
      this.limit.max,
      member,
      IDLE_KEY_MARGIN_MS,
    );
    return acquired === 1;
  }
}
