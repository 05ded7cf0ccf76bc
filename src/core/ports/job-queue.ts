import { AppError } from '../errors';

/**
 * The queue turns run on. BullMQ when `REDIS_URL` is set (a team that outgrows one machine
 * adds workers), in-process otherwise; both pass one contract suite
 * (`test/support/queue-contract.ts`).
 *
 * A job is a wake-up, not the work's only record: the run it names is stored first, so a lost
 * or duplicated delivery can be recovered from the database. Delivery is at least once: a job
 * handed back at shutdown, or recovered from a dead worker, runs again.
 */
export interface JobQueue<T> {
  /**
   * How long `close()` waits for jobs in progress before handing them back. The engine gives
   * the turns it started in-process, without a job (`LaneWorker.tryRunHere`), the same time.
   */
  readonly closeTimeoutMs: number;
  /** How a throwing handler is retried; a turn started in-process that throws is enqueued to be retried the same way. */
  readonly retry: RetryPolicy;
  /**
   * Adds a job; a job whose id is already waiting, delayed, running or waiting to be retried
   * is not added again (returns false). Once it has completed or finally failed, the same id
   * may be added again (the turn engine re-enqueues a run id as a wake-up).
   *
   * Rejects with a `ValidationError` when the id is empty, contains `:` (BullMQ reserves it)
   * or is an integer (BullMQ's own ids), or when `data` is not plain JSON; with
   * `QueueClosedError` after `close()`; with `ServiceUnavailableError` when Redis cannot be
   * reached (nothing was added: the engine tries again, `RetryingQueue`).
   */
  enqueue(job: { id: string; data: T }, options?: EnqueueOptions): Promise<boolean>;
  /** Starts consuming with at most `concurrency` jobs at once. Called once per queue. */
  process(handler: JobHandler<T>, options: { concurrency: number }): void;
  /** Jobs added and not yet started: waiting, delayed or waiting to be retried (the queue depth). */
  depth(): Promise<number>;
  /**
   * Stops taking jobs and waits for the jobs in progress to finish (SIGTERM). After the
   * queue's close timeout their `signal` is aborted and they are handed back (BullMQ: to the
   * waiting list, first in line, for another worker), and `close()` resolves without waiting
   * for them. Idempotent.
   */
  close(): Promise<void>;
  /**
   * T2: `listener` is called each time the queue's connection comes back after it was lost (a
   * Redis restart; one that kept nothing loses its jobs, so the engine re-enqueues its queued
   * runs then). Absent: the queue has no connection to lose (in-process).
   */
  onReconnect?(listener: () => void): () => void;
}

export interface EnqueueOptions {
  /** Not processed before this many milliseconds from now. */
  delayMs?: number;
}

export interface QueuedJob<T> {
  id: string;
  /** A fresh copy, as read back from JSON. */
  data: T;
  /** 1 on the first try; a retry after a failure counts up. A hand-back does not. */
  attempt: number;
  /** Aborted when the queue closes and gives up waiting for this job (it will run again). */
  signal: AbortSignal;
}

/**
 * Resolves when the job is done. A throw is retried with backoff until the attempts run out;
 * throw `PermanentJobError` when retrying cannot help.
 */
export type JobHandler<T> = (job: QueuedJob<T>) => Promise<void>;

/** `attempts` counts every try, the first included; retry n waits `backoffMs * 2^(n-1)`. */
export interface RetryPolicy {
  attempts: number;
  backoffMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { attempts: 3, backoffMs: 1000 };

/**
 * How long `close()` waits for jobs in progress before handing them back. Under Docker's
 * default 10 s between SIGTERM and SIGKILL, so the hand-back itself still has time.
 */
export const DEFAULT_CLOSE_TIMEOUT_MS = 8000;

/** Thrown by a handler: the job fails now, without the remaining retries. */
export class PermanentJobError extends AppError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, 'job_failed_permanently', options);
  }
}

export class QueueClosedError extends AppError {
  constructor(queueName: string) {
    super(`The job queue "${queueName}" is closed; it takes no more jobs.`, 'queue_closed');
  }
}
