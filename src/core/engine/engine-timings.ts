export interface EngineTimings {
  /** P9: status-card edits are coalesced to about one a second. */
  statusEditIntervalMs: number;
  /**
   * P9, P14 (decision): a turn shows its card, its session and its stream once it has run this
   * long; one that ends sooner posts just its reply. 0 shows them at once.
   */
  signOfLifeMs: number;
  /** A worker proves a running run alive this often (the run's `lastEventAt`). */
  heartbeatMs: number;
  /** A running run unheard of for this long belongs to a dead worker (A12 `dead`). */
  deadAfterMs: number;
  /** A12 `looping`: the same tool call this many times in a row. */
  loopThreshold: number;
  /** How many recent messages a prompt's history is drawn from (then cut to the context size). */
  historyMessages: number;
}

export const DEFAULT_TIMINGS: EngineTimings = {
  statusEditIntervalMs: 1000,
  signOfLifeMs: 0,
  heartbeatMs: 15_000,
  deadAfterMs: 60_000,
  loopThreshold: 5,
  historyMessages: 200,
};
