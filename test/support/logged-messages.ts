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

/** Prepared statements seen so far (any connection), by name: T3's reads and writes are prepared. */
const preparedTexts = new Map<string, string>();

/**
 * A message as its statements mean it: a `PREPARE` (a connection meeting a statement for the
 * first time) left out, and each `EXECUTE` shown as the statement it runs.
 */
export const readableMessage = (message: string): string =>
  message
    .split(';\n')
    .flatMap((statement) => {
      const prepare = statement.match(/^PREPARE (summon_\w+)\([^)]*\) AS (.*)$/s);
      if (prepare?.[1] !== undefined && prepare[2] !== undefined) {
        preparedTexts.set(prepare[1], prepare[2]);
        return [];
      }
      if (statement === 'DEALLOCATE ALL') return [];
      const name = statement.match(/^EXECUTE (summon_\w+)\(/)?.[1];
      return [name === undefined ? statement : (preparedTexts.get(name) ?? statement)];
    })
    .join(';\n');
