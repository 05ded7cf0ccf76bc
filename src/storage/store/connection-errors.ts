import { ServiceUnavailableError } from '../../core/errors';

/** Socket errors of a connection to PostgreSQL that is refused, reset or gone. */
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'EAI_AGAIN',
]);

/**
 * SQLSTATEs of a server going away or not yet taking connections: class 08 (connection
 * exception), 57P01 admin_shutdown, 57P02 crash_shutdown, 57P03 cannot_connect_now (starting
 * up, shutting down, in recovery).
 */
const SERVER_GONE = /^(08...|57P0[123])$/;

/** node-postgres' own words for a connection that ended under it (it sets no code then). */
const DRIVER_MESSAGES = [
  /Connection terminated/i,
  /connection error and is not queryable/i,
  /timeout exceeded when trying to connect/i,
];

const codeOf = (error: object): unknown => (error as { code?: unknown }).code;

/** TypeORM wraps the driver's error as `driverError`; a connect failure comes unwrapped. */
const driverErrorOf = (error: object): object => {
  const inner = (error as { driverError?: unknown }).driverError;
  return typeof inner === 'object' && inner !== null ? inner : error;
};

/**
 * T2: the error as `ServiceUnavailableError` when the database could not be reached (refused,
 * dropped, shutting down, starting up), null when it is any other error. `committing`: the
 * connection was lost while the transaction's COMMIT was in flight, so it may have been stored.
 */
export function databaseUnavailable(error: unknown, committing: boolean): ServiceUnavailableError | null {
  if (typeof error !== 'object' || error === null) return null;
  const source = driverErrorOf(error);
  const code = codeOf(source);
  const message = source instanceof Error ? source.message : String(source);
  const gone =
    (typeof code === 'string' && (SOCKET_CODES.has(code) || SERVER_GONE.test(code))) ||
    // Node reports a refused connection to every address of a host name as one AggregateError.
    (source instanceof AggregateError && source.errors.some((e) => databaseUnavailable(e, false) !== null)) ||
    DRIVER_MESSAGES.some((pattern) => pattern.test(message));
  if (!gone) return null;
  return new ServiceUnavailableError(
    'database',
    `The database could not be reached: ${message}`,
    committing,
    {
      cause: error,
    },
  );
}
