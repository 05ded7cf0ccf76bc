import type { EnqueueOptions, JobHandler, JobQueue, RetryPolicy } from '../ports/job-queue';
import type { OutageWatch } from './outage-watch';
import { type OutageBackoff, retryWhileUnavailable } from './retry-while-unavailable';

/**
 * T2: the job queue as the engine uses it. A run is stored before its job is added, and adding
 * is idempotent per job id (P6), so a job that could not be added because Redis was away is
 * kept in memory and added again, with backoff, once Redis is back, rather than left for the
 * next recovery sweep.
 */
export class RetryingQueue<T> implements JobQueue<T> {
  constructor(
    private readonly inner: JobQueue<T>,
    private readonly watch?: OutageWatch,
    private readonly backoff?: OutageBackoff,
  ) {}

  get closeTimeoutMs(): number {
    return this.inner.closeTimeoutMs;
  }

  get retry(): RetryPolicy {
    return this.inner.retry;
  }

  async enqueue(job: { id: string; data: T }, options?: EnqueueOptions): Promise<boolean> {
    const added = await retryWhileUnavailable(() => this.inner.enqueue(job, options), {
      watch: this.watch,
      ...(this.backoff === undefined ? {} : { backoff: this.backoff }),
    });
    this.watch?.reached('redis');
    return added;
  }

  process(handler: JobHandler<T>, options: { concurrency: number }): void {
    this.inner.process(handler, options);
  }

  depth(): Promise<number> {
    return this.inner.depth();
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  onReconnect(listener: () => void): () => void {
    return this.inner.onReconnect?.(listener) ?? (() => {});
  }
}
