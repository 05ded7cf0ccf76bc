import type { Redis } from 'ioredis';
import { BullmqQueue } from '../../../src/adapters/queue/bullmq-queue';
import { InProcessQueue } from '../../../src/adapters/queue/in-process-queue';
import {
  createRedisClient,
  redisConnectionOptions,
} from '../../../src/adapters/redis/redis-connection-options';
import { describeQueueContract } from '../../support/queue-contract';
import { deleteKeysUnder, freshPrefix, TEST_REDIS_URL } from './redis-test-prefix';

describeQueueContract('in-process', (options) => new InProcessQueue(options));

const prefix = freshPrefix('queue-contract');
let queues = 0;
const nextName = (): string => {
  queues += 1;
  return `contract-${queues}`;
};
let redis: Redis;
beforeAll(() => {
  redis = createRedisClient(TEST_REDIS_URL);
});
afterAll(async () => {
  // Every queue is closed by the contract; this removes what they left in Redis.
  await deleteKeysUnder(redis, prefix);
  await redis.quit();
});

describeQueueContract(
  'BullMQ',
  (options) =>
    new BullmqQueue({
      ...options,
      name: nextName(),
      connection: redisConnectionOptions(TEST_REDIS_URL, 'producer'),
      prefix,
    }),
);
