/**
 * M20: an ordered pair (agent A wakes agent B) is rate-limited across chains, per workspace
 * (default 5 wakes per 10 minutes). In-process without Redis, Redis-backed with `REDIS_URL`
 * so every worker shares one count.
 */
export interface PairRateLimiter {
  /** Counts one wake of `to` by `from` if the pair is under its limit; false when it is not. */
  tryAcquire(workspaceId: string, fromAgentId: string, toAgentId: string, now: Date): Promise<boolean>;
}

export interface PairRateLimit {
  max: number;
  windowMs: number;
}

export const DEFAULT_PAIR_RATE_LIMIT: PairRateLimit = { max: 5, windowMs: 10 * 60 * 1000 };
