import { ValidationError } from '../errors';
import {
  DEFAULT_PAIR_RATE_LIMIT,
  type PairRateLimit,
  type PairRateLimiter,
} from '../ports/pair-rate-limiter';

/**
 * M20 without Redis: at most `max` wakes of B by A in any `windowMs`, per workspace. A sliding
 * window: a wake counts from its `now` until `now + windowMs` (exclusive), the same rule as
 * the Redis limiter (`src/adapters/redis/redis-pair-rate-limiter.ts`). Pure: the clock is the
 * `now` argument.
 */
export class InMemoryPairRateLimiter implements PairRateLimiter {
  /** Times (ms) of the wakes still in the window, oldest first, per pair. */
  private readonly wakes = new Map<string, number[]>();

  constructor(private readonly limit: PairRateLimit = DEFAULT_PAIR_RATE_LIMIT) {
    assertPairRateLimit(limit);
  }

  async tryAcquire(workspaceId: string, fromAgentId: string, toAgentId: string, now: Date): Promise<boolean> {
    const key = JSON.stringify([workspaceId, fromAgentId, toAgentId]);
    const at = now.getTime();
    const recent = (this.wakes.get(key) ?? []).filter((time) => time > at - this.limit.windowMs);
    const allowed = recent.length < this.limit.max;
    if (allowed) recent.push(at);
    // At most `max` times per pair are kept; a pair found with none left is dropped.
    if (recent.length === 0) this.wakes.delete(key);
    else this.wakes.set(key, recent);
    return allowed;
  }
}

export function assertPairRateLimit(limit: PairRateLimit): void {
  if (!Number.isInteger(limit.max) || limit.max < 1) {
    throw new ValidationError(`The pair rate limit's max must be an integer >= 1, got ${limit.max}.`);
  }
  if (!Number.isInteger(limit.windowMs) || limit.windowMs < 1) {
    throw new ValidationError(
      `The pair rate limit's windowMs must be an integer >= 1, got ${limit.windowMs}.`,
    );
  }
}
