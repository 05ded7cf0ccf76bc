import { escapeLiteral } from 'pg';
import type { EntityManager, EntityTarget, ObjectLiteral } from 'typeorm';
import { columnKind, entityMetadata } from './entity-metadata';
import { isUuid } from './ids';
import { sendTogetherWithOwed } from './pending-statements';
import type { Statement } from './prepared-statement';

/**
 * A value written into the text of a statement sent with others (the simple query protocol
 * carries no parameters). Only what cannot carry SQL is accepted: a uuid, a safe integer, a
 * valid date. Anything else is a programming error, thrown before anything is sent.
 */
export const sqlLiteral = (value: string | number | Date): string => {
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value)) throw new Error(`Not an integer literal: ${value}`);
    return String(value);
  }
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) throw new Error('Not a valid date literal.');
    return `'${value.toISOString()}'::timestamptz`;
  }
  if (!isUuid(value)) throw new Error(`Not a uuid literal: ${JSON.stringify(value)}`);
  return `'${value}'::uuid`;
};

/**
 * Text from outside (a slug, a channel or thread id, a user id) written into a statement sent
 * with others: quoted by node-postgres' own `escapeLiteral` (quotes doubled, backslashes in an
 * E'' string), and refused when it holds a NUL, which no text column can store.
 */
export const textLiteral = (value: string): string => {
  if (value.includes('\0')) throw new Error('A text literal cannot hold a NUL character.');
  // T3: what `escapeLiteral` gives for text without a backslash, without its copy char by char.
  if (!value.includes('\\')) return `'${value.includes("'") ? value.replaceAll("'", "''") : value}'`;
  return escapeLiteral(value);
};

/** A `text[]` of texts from outside, each quoted as `textLiteral` quotes it. */
export const textArrayLiteral = (values: readonly string[]): string =>
  `ARRAY[${values.map(textLiteral).join(', ')}]::text[]`;

/**
 * T3: runs statements in one round trip on the transaction's own connection
 * — one simple-query message, one reply, with what the transaction still owes in front
 * (`pending-statements.ts`: its START TRANSACTION, deferred writes) — and returns each
 * statement's rows in order. Under READ COMMITTED each statement still takes its own snapshot,
 * so a lock taken by one is held before the next reads. Values go in with `sqlLiteral` or
 * `textLiteral` only. Logged as one query.
 */
export const queryTogether = async (
  manager: EntityManager,
  statements: readonly Statement[],
): Promise<Record<string, unknown>[][]> => {
  const runner = manager.queryRunner;
  if (!runner) throw new Error('A store transaction always has a query runner.');
  return sendTogetherWithOwed(runner, statements);
};

/**
 * A row read by plain SQL as TypeORM would have read it through the entity: each column by its
 * database name to its property, its value through the driver's own hydration (T3: skipped for
 * the columns whose values it hands back unchanged, `columnKind`).
 */
export const hydrate = <Row extends ObjectLiteral>(
  manager: EntityManager,
  entity: EntityTarget<Row>,
  raw: Record<string, unknown>,
): Row => {
  const metadata = entityMetadata(manager, entity);
  const driver = manager.connection.driver;
  const row: ObjectLiteral = {};
  for (const column of metadata.columns) {
    const name = column.databaseName;
    if (!(name in raw)) continue;
    const kind = columnKind(column);
    const value = kind.hydrate === 'same' ? raw[name] : driver.prepareHydratedValue(raw[name], column);
    if (kind.plain) row[column.propertyName] = value;
    else column.setEntityValue(row, value);
  }
  return row as Row;
};

/** Every row of a statement's result, hydrated. */
export const hydrateAll = <Row extends ObjectLiteral>(
  manager: EntityManager,
  entity: EntityTarget<Row>,
  raws: readonly Record<string, unknown>[] | undefined,
): Row[] => (raws ?? []).map((raw) => hydrate(manager, entity, raw));

/** A statement's first row, hydrated; null when it returned none. */
export const hydrateFirst = <Row extends ObjectLiteral>(
  manager: EntityManager,
  entity: EntityTarget<Row>,
  raws: readonly Record<string, unknown>[] | undefined,
): Row | null => {
  const [raw] = raws ?? [];
  return raw === undefined ? null : hydrate(manager, entity, raw);
};
