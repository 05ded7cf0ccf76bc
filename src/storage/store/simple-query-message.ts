import { Client, type FieldDef, Query, types } from 'pg';
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
    results = await leanSimpleQuery(client, sql);
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

/** What `LeanQuery` uses of pg's `Query` and its `Result`s beyond their declared types. */
interface QueryInternals {
  _result: ResultInternals;
  _canceledDueToError: unknown;
  _checkForMultirow(): void;
  _accumulateRows: boolean;
}
interface ResultInternals {
  rows: Record<string, unknown>[];
  fields: FieldDef[];
  _types?: { getTypeParser(oid: number, format: string): (value: string) => unknown };
  /** The result's column names and their parsers, in order (set by `LeanQuery`). */
  lean?: { names: string[]; parsers: ((value: string) => unknown)[] };
}

/**
 * T3: pg's own query, its rows made without the copies pg makes for them: pg builds, for every
 * result of a message, a dictionary of its column names and a copy of it, and copies that into
 * every row. Here each row is one object filled column by column, the same names, values and
 * order (text columns only: a simple query returns no binary one; a column named `__proto__`,
 * which an object literal cannot hold as data, is left to pg).
 */
class LeanQuery extends Query {
  handleRowDescription(message: { fields: FieldDef[] }): void {
    const self = this as unknown as QueryInternals;
    if (message.fields.some((field) => field.name === '__proto__' || field.format === 'binary')) {
      (Query.prototype as unknown as { handleRowDescription(m: unknown): void }).handleRowDescription.call(
        this,
        message,
      );
      return;
    }
    self._checkForMultirow();
    const result = self._result;
    const parser = result._types ?? types;
    result.fields = message.fields;
    result.lean = {
      names: message.fields.map((field) => field.name),
      parsers: message.fields.map((field) => parser.getTypeParser(field.dataTypeID, 'text')),
    };
    self._accumulateRows = true;
  }

  handleDataRow(message: { fields: (string | null)[] }): void {
    const self = this as unknown as QueryInternals;
    const lean = self._result.lean;
    if (lean === undefined) {
      (Query.prototype as unknown as { handleDataRow(m: unknown): void }).handleDataRow.call(this, message);
      return;
    }
    if (self._canceledDueToError) return;
    const row: Record<string, unknown> = {};
    try {
      for (let i = 0; i < message.fields.length; i += 1) {
        const raw = message.fields[i];
        row[lean.names[i] as string] = raw === null || raw === undefined ? null : lean.parsers[i]?.(raw);
      }
    } catch (error) {
      self._canceledDueToError = error;
      return;
    }
    self._result.rows.push(row);
  }
}

/** `client.query(sql)` as a `LeanQuery` on a pg client (anything else: its own `query`). */
export const leanSimpleQuery = (
  client: SimpleQueryClient,
  sql: string,
): ReturnType<SimpleQueryClient['query']> => {
  if (!(client instanceof Client)) return client.query(sql);
  return new Promise((resolve, reject) => {
    client.query(
      new LeanQuery(sql, (error: Error | undefined, result: unknown) => {
        if (error === undefined || error === null)
          resolve(result as Awaited<ReturnType<SimpleQueryClient['query']>>);
        else {
          // As pg's own promise does: the stack leads back here, not to the socket's read.
          Error.captureStackTrace(error);
          reject(error);
        }
      }),
    );
  });
};
