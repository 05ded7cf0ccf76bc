import type { EngineDeps } from '../engine/engine-deps';
import type { PairRateLimiter } from '../ports/pair-rate-limiter';

/** What the receiving side of the relay protocol needs of the engine, and its own pair limit (R3). */
export type RelayInboundDeps = Pick<
  EngineDeps,
  'store' | 'platforms' | 'queue' | 'waits' | 'clock' | 'logger' | 'relayName'
> & {
  /** R3: notes from one paired relay to one agent, across chains. */
  pairLimiter: PairRateLimiter;
};
