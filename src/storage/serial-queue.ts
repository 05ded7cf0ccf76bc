/**
 * A promise-chain mutex: each task starts when the previous one has settled. PGlite gives every
 * connection one shared session, so two interleaved transactions would be one transaction;
 * the embedded database runs its store transactions one at a time through this.
 */
export interface SerialQueue {
  run<T>(task: () => Promise<T>): Promise<T>;
}

export const createSerialQueue = (): SerialQueue => {
  let tail: Promise<unknown> = Promise.resolve();
  return {
    run<T>(task: () => Promise<T>): Promise<T> {
      const result = tail.then(task);
      // The next task waits for this one to settle, whatever its outcome.
      tail = result.catch(() => undefined);
      return result;
    },
  };
};

/** PostgreSQL isolates its connections itself: nothing to serialise. */
export const concurrentQueue: SerialQueue = { run: (task) => task() };
