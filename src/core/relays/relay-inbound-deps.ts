import type { ApprovalDeps } from '../engine/approvals/approval-deps';
import type { PairRateLimiter } from '../ports/pair-rate-limiter';

/** What the receiving side of the relay protocol needs of the engine, and its own pair limit (R3). */
export type RelayInboundDeps = ApprovalDeps & {
  /** N5: this relay's name on the notes it places. */
  relayName: string | null;
  /** R3: notes from one paired relay to one agent, across chains. */
  pairLimiter: PairRateLimiter;
};
