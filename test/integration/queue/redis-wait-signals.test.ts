import type { Redis } from 'ioredis';
import { createRedisClient } from '../../../src/adapters/redis/redis-connection-options';
import { RedisWaitSignals } from '../../../src/adapters/redis/redis-wait-signals';
import { awaitSignal } from '../../../src/core/waits/await-signal';
import { waitFor } from '../../support/engine-harness';
import { freshPrefix, TEST_REDIS_URL } from './redis-test-prefix';

describe('T1: RedisWaitSignals (real Redis)', () => {
  let redis: Redis;
  let here: RedisWaitSignals;
  let there: RedisWaitSignals;
  beforeEach(() => {
    redis = createRedisClient(TEST_REDIS_URL);
    const channelPrefix = `${freshPrefix('waits')}:`;
    here = new RedisWaitSignals(redis, { channelPrefix });
    there = new RedisWaitSignals(redis, { channelPrefix });
  });
  afterEach(async () => {
    await here.close();
    await there.close();
    await redis.quit();
  });

  it('a notification from another process reaches the subscribers of its topic only', async () => {
    const heard: string[] = [];
    const stopA = await here.subscribe('approval:a', () => heard.push('a'));
    await here.subscribe('approval:b', () => heard.push('b'));
    await there.notify('approval:a');
    await waitFor(async () => heard.length > 0);
    expect(heard).toEqual(['a']);
    stopA();
    await there.notify('approval:b');
    await waitFor(async () => heard.length > 1);
    await there.notify('approval:a'); // unsubscribed: nobody hears it
    await there.notify('approval:b');
    await waitFor(async () => heard.length > 2);
    expect(heard).toEqual(['a', 'b', 'b']);
  });

  it('an awaitSignal in one process is woken by a state change notified in another', async () => {
    let decided: string | null = null;
    const waiting = awaitSignal(
      { signals: here, clock: { now: () => new Date() } },
      { topic: 'question:q', check: async () => decided, signal: new AbortController().signal },
    );
    // Stored first, then notified (as the engine does), from the other process.
    await new Promise((resolve) => setTimeout(resolve, 50));
    decided = 'answered';
    await there.notify('question:q');
    expect(await waiting).toEqual({ state: 'ready', value: 'answered' });
  });
});
