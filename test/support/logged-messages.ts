import type { DataSource, Logger as TypeormLogger } from 'typeorm';

/**
 * Hands every message the store sends through `dataSource` (one logged query is one message)
 * to `record`, in place of its logger, for the tests that count what a transaction sends.
 */
export function recordMessages(dataSource: DataSource, record: (message: string) => void): void {
  const counting: TypeormLogger = {
    logQuery: (query) => record(query),
    logQueryError: () => {},
    logQuerySlow: () => {},
    logSchemaBuild: () => {},
    logMigration: () => {},
    log: () => {},
  };
  Object.defineProperty(dataSource, 'logger', { value: counting, configurable: true });
}
