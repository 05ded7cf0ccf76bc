import type { Redis } from 'ioredis';

export const TEST_REDIS_URL = process.env.SUMMON_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** A key prefix no other test file (or run) uses. */
export function freshPrefix(label: string): string {
  return `summon-test-${label}-${process.pid}-${Date.now().toString(36)}`;
}

/** Removes every key under `prefix` (the queues' and limiters' own, all of them). */
export async function deleteKeysUnder(redis: Redis, prefix: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
    if (keys.length > 0) await redis.del(...keys);
    cursor = next;
  } while (cursor !== '0');
}
