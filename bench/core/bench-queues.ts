import { randomBytes } from 'node:crypto';
import { Queue } from 'bullmq';
import { redisConnectionOptions } from '../../src/adapters/redis/redis-connection-options';
import type { Cleanup } from './cleanup';

export interface QueueNames {
  name: string;
  /** BullMQ's key prefix: every key the run leaves starts with it. */
  prefix: string;
}

/** A name and key prefix no other run (or Summon itself) uses. */
export function freshQueueNames(what: string): QueueNames {
  const tag = randomBytes(4).toString('hex');
  return { name: `${what}-${tag}`, prefix: `summon-bench-${tag}` };
}

/** Registers the removal of every key of the queue; run it after its workers have closed. */
export function deferObliterate(cleanup: Cleanup, names: QueueNames, redisUrl: string): void {
  cleanup.defer(`obliterate queue ${names.prefix}:${names.name}`, async () => {
    const queue = new Queue(names.name, {
      connection: redisConnectionOptions(redisUrl, 'client'),
      prefix: names.prefix,
    });
    try {
      await queue.obliterate({ force: true });
    } finally {
      await queue.close();
    }
  });
}
