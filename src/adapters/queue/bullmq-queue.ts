import { type Job, type JobsOptions, Queue, UnrecoverableError, WaitingError, Worker } from 'bullmq';
import {
  DEFAULT_CLOSE_TIMEOUT_MS,
  DEFAULT_RETRY_POLICY,
  type EnqueueOptions,
  type JobHandler,
  type JobQueue,
  PermanentJobError,
  QueueClosedError,
  type RetryPolicy,
} from '../../core/ports/job-queue';
import { type Logger, silentLogger } from '../../core/ports/logger';
import type { RedisConnectionOptions } from '../redis/redis-connection-options';
import { redisUnavailable } from '../redis/redis-unavailable';
import { addUnlessPresent } from './bullmq-add-unless-present';
import { asError, isFinalFailure, logJobFailure } from './job-failure';
import {
  assertConcurrency,
  assertJobId,
  assertRetryPolicy,
  delayOf,
  serializeJobData,
} from './job-validation';

export interface BullmqQueueOptions {
  name: string;
  /** From `redisConnectionOptions(url, 'producer')`; the worker's gets `maxRetriesPerRequest: null`. */
  connection: RedisConnectionOptions;
  /** BullMQ's key prefix (default `bull`); tests use a fresh one per file. */
  prefix?: string;
  retry?: RetryPolicy;
  closeTimeoutMs?: number;
  logger?: Logger;
}

/** Every job has one name: the queue carries one kind of work. */
const JOB_NAME = 'job';

interface ActiveJob {
  job: Job;
  token: string | undefined;
  controller: AbortController;
  handBack: (error: WaitingError) => void;
}

/**
 * The queue on Redis. Any number of processes may construct it with one name: each enqueues,
 * and each that calls `process` adds a worker sharing the work (every job runs on one worker).
 *
 * Completed and failed jobs are removed at once, so their ids can be enqueued again (the run
 * record in the database is the history). Stalled jobs are left to BullMQ's defaults: a worker
 * that dies (SIGKILL, crash) stops renewing its 30 s job locks, and another worker's stalled
 * check (every 30 s) moves those jobs back to waiting, so they run again within about a
 * minute; a job that stalls a second time fails (`maxStalledCount: 1`).
 */
export class BullmqQueue<T> implements JobQueue<T> {
  private readonly queue: Queue<T>;
  readonly retry: RetryPolicy;
  readonly closeTimeoutMs: number;
  private readonly log: Logger;
  private readonly active = new Set<ActiveJob>();
  /** Failures `run` threw and logged; BullMQ's own (a stalled job given up) are logged on 'failed'. */
  private readonly loggedFailures = new WeakSet<Error>();
  private worker: Worker<T, void> | undefined;
  private closing: Promise<void> | undefined;
  private readonly reconnectListeners = new Set<() => void>();

  constructor(private readonly options: BullmqQueueOptions) {
    this.retry = options.retry ?? DEFAULT_RETRY_POLICY;
    assertRetryPolicy(this.retry);
    this.closeTimeoutMs = options.closeTimeoutMs ?? DEFAULT_CLOSE_TIMEOUT_MS;
    this.log = (options.logger ?? silentLogger).child({ component: 'queue', queue: options.name });
    this.queue = new Queue<T>(options.name, { connection: options.connection, ...this.prefixOption() });
    this.queue.on('error', (error) => this.log.error({ err: error }, 'queue connection error'));
    this.watchReconnects();
  }

  async enqueue(job: { id: string; data: T }, options?: EnqueueOptions): Promise<boolean> {
    if (this.closing) throw new QueueClosedError(this.options.name);
    assertJobId(job.id);
    const delay = delayOf(options);
    serializeJobData(job.data);
    const jobOptions: JobsOptions = {
      attempts: this.retry.attempts,
      backoff: { type: 'exponential', delay: this.retry.backoffMs },
      removeOnComplete: true,
      removeOnFail: true,
      ...(delay > 0 ? { delay } : {}),
    };
    // P6: a job already pending under this id is the same wake-up; it is not queued twice.
    try {
      return await addUnlessPresent(this.queue, JOB_NAME, job.id, job.data, jobOptions);
    } catch (error) {
      // T2: Redis away; adding under the same id again is safe, whether or not this try landed.
      throw redisUnavailable(error) ?? error;
    }
  }

  /** T2: each time the queue's connection is ready again after it was lost (a Redis restart). */
  onReconnect(listener: () => void): () => void {
    this.reconnectListeners.add(listener);
    return () => this.reconnectListeners.delete(listener);
  }

  process(handler: JobHandler<T>, options: { concurrency: number }): void {
    if (this.closing) throw new QueueClosedError(this.options.name);
    if (this.worker) throw new Error(`The job queue "${this.options.name}" already has a handler.`);
    assertConcurrency(options.concurrency);
    this.worker = new Worker<T, void>(this.options.name, (job, token) => this.run(job, token, handler), {
      connection: { ...this.options.connection, maxRetriesPerRequest: null, enableOfflineQueue: true },
      concurrency: options.concurrency,
      ...this.prefixOption(),
    });
    this.worker.on('error', (error) => this.log.error({ err: error }, 'worker error'));
    this.worker.on('stalled', (jobId) =>
      this.log.warn({ jobId }, 'job stalled (its worker died?); running it again'),
    );
    this.worker.on('failed', (job, error) => {
      if (!this.loggedFailures.has(error)) this.log.error({ jobId: job?.id, err: error }, 'job failed');
    });
  }

  /** The process owner calls this on SIGTERM (BullMQ: workers close on SIGTERM). */
  depth(): Promise<number> {
    return this.queue.getJobCountByTypes('waiting', 'delayed', 'prioritized', 'waiting-children');
  }

  close(): Promise<void> {
    this.closing ??= this.shutDown();
    return this.closing;
  }

  private async shutDown(): Promise<void> {
    const worker = this.worker;
    if (worker) {
      const timer = setTimeout(() => void this.handBackActive(), this.closeTimeoutMs);
      try {
        // Stops fetching and waits for the jobs in progress, or for their hand-back.
        await worker.close();
      } finally {
        clearTimeout(timer);
      }
    }
    await this.queue.close();
  }

  private async run(job: Job<T, void>, token: string | undefined, handler: JobHandler<T>): Promise<void> {
    const id = job.id ?? '';
    const attempt = job.attemptsMade + 1;
    let handBack: (error: WaitingError) => void = () => {};
    const handedBack = new Promise<never>((_, reject) => {
      handBack = reject;
    });
    const active: ActiveJob = { job, token, controller: new AbortController(), handBack };
    this.active.add(active);
    try {
      await Promise.race([
        handler({ id, data: job.data, attempt, signal: active.controller.signal }),
        handedBack,
      ]);
    } catch (error) {
      // A handed-back job is back in the waiting list; BullMQ leaves a WaitingError alone.
      if (error instanceof WaitingError) throw error;
      logJobFailure(this.log, { id, attempt }, error, isFinalFailure(this.retry, attempt, error));
      const failure =
        error instanceof PermanentJobError ? new UnrecoverableError(error.message) : asError(error);
      this.loggedFailures.add(failure);
      throw failure;
    } finally {
      this.active.delete(active);
    }
  }

  /**
   * The close timeout passed: abort the handlers and put their jobs back at the head of the
   * waiting list for another worker, without using up an attempt. Should that fail, the job's
   * lock expires and the stalled check recovers it.
   */
  private async handBackActive(): Promise<void> {
    const jobs = [...this.active];
    this.log.warn({ jobIds: jobs.map((active) => active.job.id) }, 'close timed out; handing jobs back');
    await Promise.all(
      jobs.map(async (active) => {
        active.controller.abort(new QueueClosedError(this.options.name));
        try {
          if (active.token !== undefined) await active.job.moveToWait(active.token);
        } catch (error) {
          this.log.warn(
            { jobId: active.job.id, err: error },
            'hand-back failed; the job will be recovered as stalled',
          );
        }
        active.handBack(new WaitingError());
      }),
    );
  }

  private watchReconnects(): void {
    this.queue
      .getBackend()
      .client.then((client) => {
        let readyBefore = client.status === 'ready';
        client.on('ready', () => {
          if (readyBefore) {
            this.log.info({}, 'queue connection back');
            for (const listener of [...this.reconnectListeners]) listener();
          }
          readyBefore = true;
        });
      })
      .catch((error: unknown) => this.log.warn({ err: error }, 'could not watch the queue connection'));
  }

  private prefixOption(): { prefix?: string } {
    return this.options.prefix === undefined ? {} : { prefix: this.options.prefix };
  }
}
