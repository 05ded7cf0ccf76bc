import { Redis } from 'ioredis';
import { redisConnectionOptions } from './redis-connection-options';

/**
 * Whether Redis at `redisUrl` answers a PING within `timeoutMs` (readiness, `summon doctor`).
 * One short-lived connection that never retries; resolves null when it answered, otherwise the
 * reason (never the URL, which may hold a password).
 */
export async function pingRedis(redisUrl: string, timeoutMs = 3000): Promise<string | null> {
  let client: Redis;
  try {
    client = new Redis({
      ...redisConnectionOptions(redisUrl, 'client'),
      lazyConnect: true,
      connectTimeout: timeoutMs,
      maxRetriesPerRequest: 0,
      enableOfflineQueue: false,
      retryStrategy: () => null,
    });
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  // A refused connection is an 'error' event (ECONNREFUSED …); the rejection then only says
  // "Connection is closed", so the event's reason is the one reported.
  let lastError: Error | undefined;
  client.on('error', (error: Error) => {
    lastError = error;
  });
  try {
    await client.connect();
    const answer = await client.ping();
    return answer === 'PONG' ? null : `Redis answered PING with ${answer}`;
  } catch (error) {
    return lastError?.message ?? (error instanceof Error ? error.message : String(error));
  } finally {
    client.disconnect();
  }
}
