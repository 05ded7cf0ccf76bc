import { AsyncResource } from 'node:async_hooks';

/**
 * A mutex over tasks: each task starts when the previous one has settled. PGlite gives every
 * connection one shared session, so two interleaved transactions would be one transaction;
 * the embedded database runs its store transactions one at a time through this.
 *
 * `runFirst` (T4: the inbox write a front end's ack waits for) goes ahead of every task still
 * waiting, never ahead of the one running: an ack waits for one transaction at most, not for
 * the routing and the turns queued behind it.
 */
export interface SerialQueue {
  run<T>(task: () => Promise<T>): Promise<T>;
  runFirst<T>(task: () => Promise<T>): Promise<T>;
}

export const createSerialQueue = (): SerialQueue => {
  const urgent: (() => Promise<void>)[] = [];
  const waiting: (() => Promise<void>)[] = [];
  let running = false;

  const next = () => {
    if (running) return;
    const task = urgent.shift() ?? waiting.shift();
    if (task === undefined) return;
    running = true;
    void task().finally(() => {
      running = false;
      next();
    });
  };

  const enqueue = <T>(into: (() => Promise<void>)[], task: () => Promise<T>) =>
    new Promise<T>((resolve, reject) => {
      // Run in the caller's async context (not the previous task's); the next task starts
      // once this one has settled, whatever its outcome (a synchronous throw included).
      const bound = AsyncResource.bind(task);
      into.push(() => Promise.resolve().then(bound).then(resolve, reject));
      next();
    });

  return {
    run: (task) => enqueue(waiting, task),
    runFirst: (task) => enqueue(urgent, task),
  };
};

/** PostgreSQL isolates its connections itself: nothing to serialise. */
export const concurrentQueue: SerialQueue = { run: (task) => task(), runFirst: (task) => task() };
