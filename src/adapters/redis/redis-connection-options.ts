import type { ConnectionOptions as TlsOptions } from 'node:tls';
import { Redis } from 'ioredis';
import { ValidationError } from '../../core/errors';

/**
 * Who a connection is for. BullMQ's production guide: a worker's connection retries forever
 * (`maxRetriesPerRequest: null`) so a Redis restart pauses work instead of failing jobs; a
 * producer fails fast (`enableOfflineQueue: false`) so enqueueing while Redis is away errors
 * at once instead of hanging a chat event handler (the run is stored first and recoverable).
 */
export type RedisRole = 'worker' | 'producer' | 'client';

/** The fields both ioredis and BullMQ accept (their own option types differ in details). */
export interface RedisConnectionOptions {
  host: string;
  port: number;
  db: number;
  username?: string;
  password?: string;
  tls?: TlsOptions;
  family?: number;
  maxRetriesPerRequest?: number | null;
  enableOfflineQueue?: boolean;
}

/** The connection options ioredis reads from `REDIS_URL` (`redis://`, `rediss://` for TLS). */
export function redisConnectionOptions(redisUrl: string, role: RedisRole = 'client'): RedisConnectionOptions {
  if (!/^rediss?:\/\//i.test(redisUrl)) {
    // The URL itself is left out: it may hold a password.
    throw new ValidationError('REDIS_URL must start with redis:// or rediss://.');
  }
  // ioredis parses the URL itself; a lazy client never connects, it only holds the result.
  const { host, port, username, password, db, tls, family } = new Redis(redisUrl, { lazyConnect: true })
    .options;
  const options: RedisConnectionOptions = { host: host ?? 'localhost', port: port ?? 6379, db: db ?? 0 };
  if (username) options.username = username;
  if (password) options.password = password;
  // ioredis marks `rediss://` with `tls: true`; an empty object means the same, typed.
  if (tls) options.tls = typeof tls === 'object' ? tls : {};
  if (family) options.family = family; // 4 or 6 from `?family=`; 0 (either) is the default
  if (role === 'worker') options.maxRetriesPerRequest = null;
  if (role === 'producer') options.enableOfflineQueue = false;
  return options;
}

/** A plain ioredis client (the pair rate limiter's); its owner calls `quit()`. */
export function createRedisClient(redisUrl: string): Redis {
  return new Redis(redisConnectionOptions(redisUrl, 'client'));
}
