import { ServiceUnavailableError } from '../../core/errors';

/** Socket errors that mean Redis is away (restarting, unreachable), not that a command was wrong. */
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'EAI_AGAIN',
]);

/** ioredis' own words for a connection that is not there (offline queue off, closed, retries spent). */
const CONNECTION_MESSAGES = [
  /enableOfflineQueue options is false/i,
  /Connection is closed/i,
  /Reached the max retries per request limit/i,
  /^LOADING /,
];

/**
 * T2: the error of a Redis call as `ServiceUnavailableError` when Redis could not be reached,
 * null otherwise. `maybeDone` is false: callers use it for idempotent calls only (adding a job
 * under its id), which may be repeated whether or not the first try landed.
 */
export function redisUnavailable(error: unknown): ServiceUnavailableError | null {
  if (!(error instanceof Error)) return null;
  const code = (error as { code?: unknown }).code;
  const known =
    (typeof code === 'string' && CONNECTION_CODES.has(code)) ||
    error.name === 'MaxRetriesPerRequestError' ||
    CONNECTION_MESSAGES.some((pattern) => pattern.test(error.message));
  if (!known) return null;
  return new ServiceUnavailableError('redis', `Redis could not be reached: ${error.message}`, false, {
    cause: error,
  });
}
