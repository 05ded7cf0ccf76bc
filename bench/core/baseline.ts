import { Queue, Worker } from 'bullmq';
import { redisConnectionOptions } from '../../src/adapters/redis/redis-connection-options';
import { deferObliterate, freshQueueNames } from './bench-queues';
import type { Cleanup } from './cleanup';
import type { RoundTrip } from './drive';
import { Waiters } from './waiters';

/**
 * The baseline: a bare BullMQ round trip on the same Redis with the same connection settings
 * as Summon's queue: `add` → a worker runs an empty processor → the job completes (seen by the
 * worker's `completed` event, in this process). No database, no engine.
 */
export async function openBaseline(
  redisUrl: string,
  options: { workerConcurrency: number; timeoutMs: number },
  cleanup: Cleanup,
): Promise<RoundTrip> {
  const names = freshQueueNames('baseline');
  deferObliterate(cleanup, names, redisUrl);
  const queue = new Queue<{ n: number }>(names.name, {
    connection: redisConnectionOptions(redisUrl, 'producer'),
    prefix: names.prefix,
  });
  cleanup.defer('close the baseline queue', () => queue.close());
  const completions = new Waiters(options.timeoutMs);
  const worker = new Worker<{ n: number }, void>(names.name, async () => {}, {
    connection: { ...redisConnectionOptions(redisUrl, 'worker'), enableOfflineQueue: true },
    concurrency: options.workerConcurrency,
    prefix: names.prefix,
  });
  cleanup.defer('close the baseline worker', () => worker.close());
  // Connection trouble shows up as round trips that time out; BullMQ would print each retry.
  queue.on('error', () => {});
  worker.on('error', () => {});
  worker.on('completed', (job) => {
    completions.settle(job.id ?? '', process.hrtime.bigint());
  });
  worker.on('failed', (job, error) => {
    if (job?.id !== undefined) completions.fail(job.id, error);
  });
  await Promise.all([queue.waitUntilReady(), worker.waitUntilReady()]);

  let added = 0;
  return async () => {
    added += 1;
    const id = `job-${added}`;
    const done = completions.expect(id);
    done.catch(() => {}); // awaited below; this only keeps an early failure from going unhandled
    try {
      await queue.add(
        'job',
        { n: added },
        {
          jobId: id,
          attempts: 3,
          backoff: { type: 'exponential', delay: 1000 },
          removeOnComplete: true,
          removeOnFail: true,
        },
      );
    } catch (error) {
      completions.fail(id, error instanceof Error ? error : new Error(String(error)));
    }
    return done;
  };
}
