import { Redis } from 'ioredis';
import { Client } from 'pg';
import { redisConnectionOptions } from '../../src/adapters/redis/redis-connection-options';
import type { Endpoints } from './endpoints';

const CONNECT_TIMEOUT_MS = 3000;

/**
 * Fails fast, with a sentence, when PostgreSQL or Redis does not answer: BullMQ's workers
 * would otherwise retry their connection forever and the run would never end.
 */
export async function preflight(endpoints: Endpoints): Promise<void> {
  const pg = new Client({
    connectionString: endpoints.postgresServerUrl,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
  });
  try {
    await pg.connect();
    await pg.query('SELECT 1');
  } catch (error) {
    throw new Error(`PostgreSQL does not answer at SUMMON_BENCH_PG_URL: ${describe(error)}`);
  } finally {
    await pg.end().catch(() => {});
  }

  const redis = new Redis({
    ...redisConnectionOptions(endpoints.redisUrl, 'client'),
    lazyConnect: true,
    connectTimeout: CONNECT_TIMEOUT_MS,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  let cause: unknown = null; // ioredis rejects with "Connection is closed"; the event says why
  redis.on('error', (error: unknown) => {
    cause ??= error;
  });
  try {
    await redis.connect();
    await redis.ping();
  } catch (error) {
    throw new Error(`Redis does not answer at SUMMON_BENCH_REDIS_URL: ${describe(cause ?? error)}`);
  } finally {
    redis.disconnect();
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
