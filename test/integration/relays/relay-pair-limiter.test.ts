import type { Redis } from 'ioredis';
import { createRedisClient } from '../../../src/adapters/redis/redis-connection-options';
import { relayPairLimiter } from '../../../src/adapters/redis/relay-pair-limiter';
import { deleteKeysUnder, freshPrefix, TEST_REDIS_URL } from '../queue/redis-test-prefix';

const prefix = `${freshPrefix('relay-pair')}:`;
let first: Redis;
let second: Redis;
beforeAll(() => {
  first = createRedisClient(TEST_REDIS_URL);
  second = createRedisClient(TEST_REDIS_URL);
});
afterAll(async () => {
  await deleteKeysUnder(first, prefix);
  await Promise.all([first.quit(), second.quit()]);
});

describe('R3: the per-pair limit of a paired relay', () => {
  it('R3: two processes on one Redis share one count per pairing and agent', async () => {
    // Two web processes, each with its own client, as the engine runtime builds them.
    const processA = relayPairLimiter(first, 2, prefix);
    const processB = relayPairLimiter(second, 2, prefix);
    const now = new Date();
    expect(await processA.tryAcquire('ws', 'relay:p1', 'qa', now)).toBe(true);
    expect(await processB.tryAcquire('ws', 'relay:p1', 'qa', now)).toBe(true);
    // The third note within the window is refused by either process.
    expect(await processA.tryAcquire('ws', 'relay:p1', 'qa', now)).toBe(false);
    expect(await processB.tryAcquire('ws', 'relay:p1', 'qa', now)).toBe(false);
    // Another agent, or another pairing, has its own count.
    expect(await processB.tryAcquire('ws', 'relay:p1', 'engineer', now)).toBe(true);
    expect(await processA.tryAcquire('ws', 'relay:p2', 'qa', now)).toBe(true);
  });

  it('R3: without Redis each process counts alone (one process per deployment)', async () => {
    const alone = relayPairLimiter(null, 1);
    const now = new Date();
    expect(await alone.tryAcquire('ws', 'relay:p1', 'qa', now)).toBe(true);
    expect(await alone.tryAcquire('ws', 'relay:p1', 'qa', now)).toBe(false);
    expect(await relayPairLimiter(null, 1).tryAcquire('ws', 'relay:p1', 'qa', now)).toBe(true);
  });
});
