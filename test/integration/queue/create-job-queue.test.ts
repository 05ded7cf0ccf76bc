import { BullmqQueue } from '../../../src/adapters/queue/bullmq-queue';
import { createJobQueue } from '../../../src/adapters/queue/create-job-queue';
import { InProcessQueue } from '../../../src/adapters/queue/in-process-queue';
import { redisConnectionOptions } from '../../../src/adapters/redis/redis-connection-options';
import { ValidationError } from '../../../src/core/errors';
import { TEST_REDIS_URL } from './redis-test-prefix';

describe('createJobQueue', () => {
  it('is in-process without a Redis URL', async () => {
    const queue = createJobQueue({ name: 'turns' });
    expect(queue).toBeInstanceOf(InProcessQueue);
    await queue.close();
  });

  it('is BullMQ with a Redis URL', async () => {
    const queue = createJobQueue({ name: 'turns', redisUrl: TEST_REDIS_URL, prefix: 'summon-test-factory' });
    expect(queue).toBeInstanceOf(BullmqQueue);
    await queue.close();
  });

  it('refuses a bad retry policy either way', () => {
    for (const redisUrl of [undefined, TEST_REDIS_URL]) {
      expect(() =>
        createJobQueue({ name: 'turns', redisUrl, retry: { attempts: 0, backoffMs: 10 } }),
      ).toThrow(ValidationError);
    }
  });
});

describe('redisConnectionOptions', () => {
  it('reads host, port, credentials and database from REDIS_URL', () => {
    expect(redisConnectionOptions('redis://summon:s%40cret@cache.internal:6380/2')).toEqual({
      host: 'cache.internal',
      port: 6380,
      db: 2,
      username: 'summon',
      password: 's@cret',
    });
    expect(redisConnectionOptions('redis://:only-password@127.0.0.1')).toEqual({
      host: '127.0.0.1',
      port: 6379,
      db: 0,
      password: 'only-password',
    });
  });

  it('turns on TLS for rediss://', () => {
    expect(redisConnectionOptions('rediss://cache.example.com:6380').tls).toBeTruthy();
  });

  it('follows BullMQ: workers retry forever, producers fail fast', () => {
    expect(redisConnectionOptions('redis://127.0.0.1', 'worker').maxRetriesPerRequest).toBeNull();
    expect(redisConnectionOptions('redis://127.0.0.1', 'producer').enableOfflineQueue).toBe(false);
    expect(redisConnectionOptions('redis://127.0.0.1', 'client')).toEqual({
      host: '127.0.0.1',
      port: 6379,
      db: 0,
    });
  });

  it('refuses a URL that is not redis:// or rediss://', () => {
    expect(() => redisConnectionOptions('http://127.0.0.1:6379')).toThrow(ValidationError);
    expect(() => redisConnectionOptions('127.0.0.1:6379')).toThrow(/redis:\/\//);
    // The message may be logged: it must not repeat a password from the URL.
    expect(() => redisConnectionOptions('http://summon:hunter2@127.0.0.1')).not.toThrow(/hunter2/);
  });
});
