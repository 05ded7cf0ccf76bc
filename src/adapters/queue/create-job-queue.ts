import type { JobQueue, RetryPolicy } from '../../core/ports/job-queue';
import type { Logger } from '../../core/ports/logger';
import { redisConnectionOptions } from '../redis/redis-connection-options';
import { BullmqQueue } from './bullmq-queue';
import { InProcessQueue } from './in-process-queue';

export interface CreateJobQueueOptions {
  name: string;
  /** `REDIS_URL`: BullMQ when given, so several processes share the work; in-process otherwise. */
  redisUrl?: string | undefined;
  /** BullMQ's key prefix; ignored in-process. */
  prefix?: string;
  retry?: RetryPolicy;
  closeTimeoutMs?: number;
  logger?: Logger;
}

export function createJobQueue<T>(options: CreateJobQueueOptions): JobQueue<T> {
  const { redisUrl, prefix, ...common } = options;
  if (redisUrl === undefined) return new InProcessQueue<T>(common);
  return new BullmqQueue<T>({
    ...common,
    connection: redisConnectionOptions(redisUrl, 'producer'),
    ...(prefix === undefined ? {} : { prefix }),
  });
}
