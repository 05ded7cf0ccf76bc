/**
 * T1: how a waiting turn learns that what it waits for may have changed — an approval decided,
 * a question answered, another run finished — without polling. A topic names one thing
 * (`waitTopics`); a notification says only "look again", the stored state stays the truth.
 *
 * In-process (`InProcessWaitSignals`) for one process; Redis pub/sub (`RedisWaitSignals`) when
 * several processes share a database, so a click handled by one wakes a wait in another.
 */
export interface WaitSignals {
  /** Every subscriber of `topic`, in every process sharing these signals, looks again. Never rejects. */
  notify(topic: string): Promise<void>;
  /**
   * Calls `onSignal` on each notification of `topic`, and whenever notifications may have been
   * missed (Redis reconnected). Resolves once notifications are being received; the returned
   * function unsubscribes.
   */
  subscribe(topic: string, onSignal: () => void): Promise<() => void>;
}

/** The topics the engine notifies; one per stored thing a turn can wait on. */
export const waitTopics = {
  approval: (approvalId: string) => `approval:${approvalId}`,
  question: (questionId: string) => `question:${questionId}`,
  run: (runId: string) => `run:${runId}`,
  /** P15: a person asked run `runId` to stop; the worker running it (whichever process) looks. */
  runStop: (runId: string) => `run-stop:${runId}`,
  /** P16: a person's message waits to join run `runId` at its next tool boundary. */
  steering: (runId: string) => `run-steering:${runId}`,
} as const;
