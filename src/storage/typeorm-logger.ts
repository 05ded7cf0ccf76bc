import type { Logger as TypeormLogger } from 'typeorm';
import type { Logger } from '../core/ports/logger';

/**
 * TypeORM's logger interface over the logger port. Failed queries are logged at debug only:
 * the store translates them into errors for its caller, which decides whether they matter
 * (a unique violation is often an expected conflict).
 */
export const typeormLogger = (log: Logger): TypeormLogger => ({
  logQuery: () => {},
  logQueryError: (error, query) => log.debug({ err: error, query }, 'query failed'),
  logQuerySlow: (time, query) => log.warn({ durationMs: time, query }, 'slow query'),
  logSchemaBuild: (message) => log.debug({}, message),
  logMigration: (message) => log.info({}, message),
  log: (level, message) => {
    if (level === 'warn') log.warn({ detail: message }, 'database warning');
    else log.debug({ detail: message }, 'database');
  },
});
