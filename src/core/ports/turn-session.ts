/**
 * P15: a platform's own session around a turn (Slack's agent session): its status follows the
 * turn — working, waiting (on an approval, a question, another agent), ended — and its native
 * Stop reaches the core as `ChatEngine.act` (a `stop-thread` action). Calls return at once (but
 * `end`); the platform sends them in order and may combine the turns of one thread into one
 * status.
 */
export interface TurnSession {
  /** The turn works: it thinks or runs a tool (again, after a wait). */
  working(): void;
  /** T1: the turn waits on a person or another agent, holding no slot. */
  waiting(): void;
  /** The turn is over, however it ended; resolves once the platform has been told. */
  end(): Promise<void>;
}

/** Who a turn's session is for. */
export interface TurnSessionOpening {
  /** The platform account of the person who started the turn; null when none (an agent's handoff). */
  initiatorUserId: string | null;
  /**
   * P9 (decision): aborts when the turn ends; the session's first status, its sign of life, is
   * withdrawn if the platform's calls were backed up until then (then nothing closes it either).
   */
  withdrawn?: AbortSignal | undefined;
}
