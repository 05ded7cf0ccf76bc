import type { EntityManager, EntityTarget, ObjectLiteral } from 'typeorm';
import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata';
import { columnByProperty, columnKind, entityMetadata } from './entity-metadata';
import { sqlLiteral, textLiteral } from './statements-together';

/**
 * T3: a value of an entity's column written into a statement sent with others (the simple query
 * protocol carries no parameters). The value goes through the driver's own preparation first
 * (jsonb to its JSON text, dates), then becomes a literal the server coerces to the column's
 * type: text only through `textLiteral`, numbers only when finite, arrays as PostgreSQL array
 * text. Anything else is a programming error, thrown before anything is sent.
 */
export const columnLiteral = (manager: EntityManager, column: ColumnMetadata, value: unknown): string => {
  const prepared = persistentValue(manager, column, value);
  if (prepared === null || prepared === undefined) return 'NULL';
  if (typeof prepared === 'boolean') return prepared ? 'TRUE' : 'FALSE';
  if (typeof prepared === 'bigint') return prepared.toString();
  if (typeof prepared === 'number') {
    if (!Number.isFinite(prepared)) throw new Error(`Not a finite number for ${column.propertyName}.`);
    return String(prepared);
  }
  if (prepared instanceof Date) return sqlLiteral(prepared);
  if (typeof prepared === 'string') return textLiteral(prepared);
  if (Array.isArray(prepared)) return textLiteral(arrayText(prepared, column));
  throw new Error(`No literal for the value of ${column.propertyName}.`);
};

/**
 * T3: the driver's `preparePersistentValue`, skipped for the columns it hands back unchanged
 * and done as it does for jsonb (`columnKind`): it builds a list of type names per call.
 */
export const persistentValue = (manager: EntityManager, column: ColumnMetadata, value: unknown): unknown => {
  const kind = columnKind(column).persist;
  if (kind === 'same' || value === null || value === undefined) {
    return kind === 'driver' ? manager.connection.driver.preparePersistentValue(value, column) : value;
  }
  if (kind === 'json') return JSON.stringify(value);
  return manager.connection.driver.preparePersistentValue(value, column);
};

/** `{"a","b"}`: every element quoted, quotes and backslashes escaped, null as NULL. */
const arrayText = (items: readonly unknown[], column: ColumnMetadata): string =>
  `{${items
    .map((item) => {
      if (item === null) return 'NULL';
      if (typeof item !== 'string')
        throw new Error(`Only text arrays are written as literals (${column.propertyName}).`);
      return `"${item.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
    })
    .join(',')}}`;

/** `"name"`: an identifier from the entity's own metadata, quoted. */
export const quotedName = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/**
 * Each set property of `values` as its column's quoted name and literal (undefined: left out),
 * and `shape`: one character per column, naming which columns they are, in order, within the
 * entity (T3: a short key for the statement text made from them, `InferredStatements.withShape`).
 */
export const columnLiterals = <Row extends ObjectLiteral>(
  manager: EntityManager,
  entity: EntityTarget<Row>,
  values: object,
): { names: string[]; literals: string[]; shape: string } => {
  const metadata = entityMetadata(manager, entity);
  const names: string[] = [];
  const literals: string[] = [];
  let shape = '';
  const record = values as Record<string, unknown>;
  for (const property of Object.keys(record)) {
    const value = record[property];
    if (value === undefined) continue;
    const column = columnByProperty(metadata, property);
    if (column === undefined) throw new Error(`${metadata.name} has no column ${property}.`);
    const kind = columnKind(column);
    names.push(kind.quotedName);
    shape += kind.code;
    literals.push(columnLiteral(manager, column, value));
  }
  return { names, literals, shape };
};

/** The entity's table, quoted. */
export const quotedTable = <Row extends ObjectLiteral>(
  manager: EntityManager,
  entity: EntityTarget<Row>,
): string => {
  const metadata = entityMetadata(manager, entity);
  let quoted = tables.get(metadata);
  if (quoted === undefined) {
    quoted = quotedName(metadata.tableName);
    tables.set(metadata, quoted);
  }
  return quoted;
};

const tables = new WeakMap<object, string>();
