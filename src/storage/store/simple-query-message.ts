import { QueryFailedError, type QueryRunner } from 'typeorm';
import { oneQueryAtATime } from './one-query-at-a-time';
import { renderStatements, type Statement } from './prepared-statement';

/** What the transaction's pg connection answers a simple query with: one result per statement. */
interface SimpleQueryClient {
  query(sql: string): Promise<{ rows: Record<string, unknown>[] } | { rows: Record<string, unknown>[] }[]>;
}

type Rows = Record<string, unknown>[];

/**
 * T3: `statements` as one simple-query message on `runner`'s own connection, after the runner's
 * earlier sends (one query at a time); each statement's rows, in order. Logged as one query.
 * `writing` is called once the connection is there, as the message is about to be written (T2:
 * a connection that could not be opened sent nothing).
 */
export function sendTogether(
  runner: QueryRunner,
  statements: readonly Statement[],
  writing?: () => void,
): Promise<Rows[]> {
  return oneQueryAtATime(runner, () => sendTogetherNow(runner, statements, writing));
}

async function sendTogetherNow(
  runner: QueryRunner,
  statements: readonly Statement[],
  writing?: () => void,
): Promise<Rows[]> {
  const client = (await runner.connect()) as SimpleQueryClient;
  // T3: prepared statements go as EXECUTE, after their PREPARE on a connection new to them.
  const message = renderStatements(client, statements);
  const sql = message.sql;
  const logger = runner.connection.logger;
  logger.logQuery(sql, [], runner);
  let results: Awaited<ReturnType<SimpleQueryClient['query']>>;
  try {
    writing?.();
    results = await client.query(sql);
  } catch (error) {
    message.failed(error);
    // As TypeORM reports a failed query: the driver's error (SQLSTATE, constraint) inside.
    logger.logQueryError(error instanceof Error ? error : String(error), sql, [], runner);
    throw new QueryFailedError(sql, [], error instanceof Error ? error : new Error(String(error)));
  }
  const list = message.theirs(Array.isArray(results) ? results : [results]);
  if (list.length !== statements.length) {
    throw new Error(`${statements.length} statements sent together, ${list.length} results.`);
  }
  return list.map((result) => result.rows);
}
