import {
  DEFAULT_CLOSE_TIMEOUT_MS,
  DEFAULT_RETRY_POLICY,
  type EnqueueOptions,
  type JobHandler,
  type JobQueue,
  QueueClosedError,
  type RetryPolicy,
} from '../../core/ports/job-queue';
import { type Logger, silentLogger } from '../../core/ports/logger';
import { isFinalFailure, logJobFailure, retryDelayMs } from './job-failure';
import {
  assertConcurrency,
  assertJobId,
  assertRetryPolicy,
  delayOf,
  serializeJobData,
} from './job-validation';

/** Runs `callback` after `delayMs`; the returned function cancels it. */
export type Schedule = (callback: () => void, delayMs: number) => () => void;

export const realSchedule: Schedule = (callback, delayMs) => {
  const timer = setTimeout(callback, delayMs);
  return () => clearTimeout(timer);
};

export interface InProcessQueueOptions {
  name?: string;
  retry?: RetryPolicy;
  closeTimeoutMs?: number;
  logger?: Logger;
  /** Timers for delays, backoff and the close timeout; a test may drive them by hand. */
  schedule?: Schedule;
}

interface Entry {
  id: string;
  /** Stored as JSON and parsed per attempt, as BullMQ reads it back from Redis. */
  json: string;
  attempt: number;
  cancelTimer: (() => void) | undefined;
}

interface Running {
  entry: Entry;
  controller: AbortController;
  handedBack: boolean;
}

/**
 * The queue without Redis: one process, nothing persisted (the run records in the database
 * are what survives a restart). FIFO; the same de-duplication, delays, retries with backoff,
 * concurrency bound and graceful close as the BullMQ queue.
 */
export class InProcessQueue<T> implements JobQueue<T> {
  private readonly name: string;
  readonly retry: RetryPolicy;
  readonly closeTimeoutMs: number;
  private readonly log: Logger;
  private readonly schedule: Schedule;

  /** Every job waiting, delayed, running or waiting for a retry, by id: the de-duplication set. */
  private readonly known = new Map<string, Entry>();
  private readonly ready: Entry[] = [];
  private readonly running = new Map<string, Running>();
  private readonly idleWaiters: Array<() => void> = [];
  private handler: JobHandler<T> | undefined;
  private concurrency = 0;
  private closing: Promise<void> | undefined;

  constructor(options: InProcessQueueOptions = {}) {
    this.name = options.name ?? 'jobs';
    this.retry = options.retry ?? DEFAULT_RETRY_POLICY;
    assertRetryPolicy(this.retry);
    this.closeTimeoutMs = options.closeTimeoutMs ?? DEFAULT_CLOSE_TIMEOUT_MS;
    this.log = (options.logger ?? silentLogger).child({ component: 'queue', queue: this.name });
    this.schedule = options.schedule ?? realSchedule;
  }

  async enqueue(job: { id: string; data: T }, options?: EnqueueOptions): Promise<boolean> {
    if (this.closing) throw new QueueClosedError(this.name);
    assertJobId(job.id);
    const delayMs = delayOf(options);
    const json = serializeJobData(job.data);
    // P6: a job already pending under this id is the same wake-up; it is not queued twice.
    if (this.known.has(job.id)) return false;
    const entry: Entry = { id: job.id, json, attempt: 1, cancelTimer: undefined };
    this.known.set(job.id, entry);
    if (delayMs > 0) this.readyAfter(entry, delayMs);
    else this.makeReady(entry);
    return true;
  }

  process(handler: JobHandler<T>, options: { concurrency: number }): void {
    if (this.closing) throw new QueueClosedError(this.name);
    if (this.handler) throw new Error(`The job queue "${this.name}" already has a handler.`);
    assertConcurrency(options.concurrency);
    this.handler = handler;
    this.concurrency = options.concurrency;
    this.pump();
  }

  async depth(): Promise<number> {
    return this.known.size - this.running.size;
  }

  close(): Promise<void> {
    this.closing ??= this.shutDown();
    return this.closing;
  }

  private async shutDown(): Promise<void> {
    // Delayed jobs and pending retries stay unrun: with no Redis they die with the process.
    for (const entry of this.known.values()) {
      entry.cancelTimer?.();
      entry.cancelTimer = undefined;
    }
    if (this.running.size === 0) return;
    const finished = await new Promise<boolean>((resolve) => {
      const cancel = this.schedule(() => resolve(false), this.closeTimeoutMs);
      this.idleWaiters.push(() => {
        cancel();
        resolve(true);
      });
    });
    if (!finished) this.handBackRunning();
  }

  /** Gives up on the jobs still running: first in line again, their results ignored. */
  private handBackRunning(): void {
    const handedBack = [...this.running.values()];
    this.running.clear();
    for (const run of handedBack) {
      run.handedBack = true;
      run.controller.abort(new QueueClosedError(this.name));
    }
    this.ready.unshift(...handedBack.map((run) => run.entry));
    this.log.warn({ jobIds: handedBack.map((run) => run.entry.id) }, 'close timed out; jobs handed back');
  }

  private readyAfter(entry: Entry, delayMs: number): void {
    entry.cancelTimer = this.schedule(() => {
      entry.cancelTimer = undefined;
      this.makeReady(entry);
    }, delayMs);
  }

  private makeReady(entry: Entry): void {
    this.ready.push(entry);
    this.pump();
  }

  private pump(): void {
    const handler = this.handler;
    if (!handler || this.closing) return;
    while (this.running.size < this.concurrency) {
      const entry = this.ready.shift();
      if (!entry) return;
      this.start(entry, handler);
    }
  }

  private start(entry: Entry, handler: JobHandler<T>): void {
    const run: Running = { entry, controller: new AbortController(), handedBack: false };
    this.running.set(entry.id, run);
    const job = {
      id: entry.id,
      data: JSON.parse(entry.json) as T,
      attempt: entry.attempt,
      signal: run.controller.signal,
    };
    // A handler that throws synchronously fails its attempt like one that rejects.
    Promise.resolve()
      .then(() => handler(job))
      .then(
        () => this.finish(run, undefined),
        (error: unknown) => this.finish(run, { error }),
      );
  }

  private finish(run: Running, failure: { error: unknown } | undefined): void {
    if (run.handedBack) return;
    const { entry } = run;
    this.running.delete(entry.id);
    if (failure === undefined) {
      this.known.delete(entry.id);
    } else {
      const final = isFinalFailure(this.retry, entry.attempt, failure.error);
      logJobFailure(this.log, entry, failure.error, final);
      if (final) {
        this.known.delete(entry.id);
      } else {
        entry.attempt += 1;
        // After close, the retry is not scheduled; the job is left as the process leaves it.
        if (!this.closing) this.readyAfter(entry, retryDelayMs(this.retry, entry.attempt - 1));
      }
    }
    if (this.running.size === 0) {
      for (const wake of this.idleWaiters.splice(0)) wake();
    }
    this.pump();
  }
}
