import type { Redis } from 'ioredis';
import { BullmqQueue } from '../../../src/adapters/queue/bullmq-queue';
import {
  createRedisClient,
  redisConnectionOptions,
} from '../../../src/adapters/redis/redis-connection-options';
import type { JobQueue } from '../../../src/core/ports/job-queue';
import { deferred, sleep, waitFor } from '../../support/queue-contract';
import { deleteKeysUnder, freshPrefix, TEST_REDIS_URL } from './redis-test-prefix';

/** What lets a team add workers: every process that constructs the queue shares it. */
describe('BullMQ queue shared by several processes', () => {
  const prefix = freshPrefix('bullmq-workers');
  let redis: Redis;
  let queues = 0;
  let opened: JobQueue<{ n: number }>[] = [];

  /** One "process": its own connections to one queue name. */
  const instance = (name: string, closeTimeoutMs = 5000): JobQueue<{ n: number }> => {
    const queue = new BullmqQueue<{ n: number }>({
      name,
      connection: redisConnectionOptions(TEST_REDIS_URL, 'producer'),
      prefix,
      retry: { attempts: 3, backoffMs: 20 },
      closeTimeoutMs,
    });
    opened.push(queue);
    return queue;
  };
  const freshName = (): string => {
    queues += 1;
    return `shared-${queues}`;
  };

  beforeAll(() => {
    redis = createRedisClient(TEST_REDIS_URL);
  });
  afterEach(async () => {
    await Promise.all(opened.map((queue) => queue.close()));
    opened = [];
  });
  afterAll(async () => {
    await deleteKeysUnder(redis, prefix);
    await redis.quit();
  });

  it('a job enqueued by one instance is processed by a worker of another', async () => {
    const name = freshName();
    const producer = instance(name);
    const worker = instance(name);
    const seen: string[] = [];
    worker.process(async ({ id }) => void seen.push(id), { concurrency: 1 });
    expect(await producer.enqueue({ id: 'run-remote', data: { n: 1 } })).toBe(true);
    await waitFor(() => seen.length === 1);
    expect(seen).toEqual(['run-remote']);
  });

  it('de-duplicates across instances: one id, one job', async () => {
    const name = freshName();
    const [first, second] = [instance(name), instance(name)];
    const added = await Promise.all([
      first.enqueue({ id: 'run-race', data: { n: 1 } }),
      second.enqueue({ id: 'run-race', data: { n: 2 } }),
      first.enqueue({ id: 'run-race', data: { n: 3 } }),
    ]);
    expect(added.filter(Boolean)).toHaveLength(1);
  });

  it('two workers share the work, each job once', async () => {
    const name = freshName();
    const producer = instance(name);
    const byWorker: Record<'a' | 'b', string[]> = { a: [], b: [] };
    for (const worker of ['a', 'b'] as const) {
      instance(name).process(
        async ({ id }) => {
          byWorker[worker].push(id);
          await sleep(30);
        },
        { concurrency: 1 },
      );
    }
    await sleep(200); // both workers connected and waiting
    const ids = Array.from({ length: 12 }, (_, n) => `run-share-${n}`);
    for (const [n, id] of ids.entries()) await producer.enqueue({ id, data: { n } });
    await waitFor(() => byWorker.a.length + byWorker.b.length === ids.length);
    await sleep(100);
    expect([...byWorker.a, ...byWorker.b].sort()).toEqual([...ids].sort());
    expect(byWorker.a.length).toBeGreaterThan(0);
    expect(byWorker.b.length).toBeGreaterThan(0);
  });

  it('a job handed back at close runs on another worker, without using up an attempt', async () => {
    const name = freshName();
    const leaving = instance(name, 150);
    const stuck = deferred();
    const leavingSaw: number[] = [];
    leaving.process(
      async ({ attempt }) => {
        leavingSaw.push(attempt);
        await stuck.promise; // ignores its signal, like a handler blocked in a network call
      },
      { concurrency: 1 },
    );
    await leaving.enqueue({ id: 'run-handed-back', data: { n: 1 } });
    await waitFor(() => leavingSaw.length === 1);
    await leaving.close();

    const staying = instance(name);
    const stayingSaw: number[] = [];
    staying.process(async ({ attempt }) => void stayingSaw.push(attempt), { concurrency: 1 });
    await waitFor(() => stayingSaw.length === 1);
    expect(leavingSaw).toEqual([1]);
    expect(stayingSaw).toEqual([1]);
    stuck.resolve();
  });
});
