import type { EntityManager, EntityTarget, ObjectLiteral } from 'typeorm';
import { columnLiterals, quotedTable } from './column-literal';
import { hydrate, queryTogether } from './statements-together';

/**
 * One row inserted and read back as stored (defaults, generated ids and sequence numbers
 * included): one `INSERT … RETURNING *`, without the per-entity bookkeeping of `save` (T3: a
 * turn's hot path inserts a conversation, messages and runs). Sent as a simple query with its
 * values as literals (`column-literal.ts`), so that what the transaction owes (its START
 * TRANSACTION) goes in the same round trip.
 */
export const insertReturning = async <Row extends ObjectLiteral>(
  manager: EntityManager,
  entity: EntityTarget<Row>,
  values: Partial<Row>,
): Promise<Row> => {
  const [rows] = await queryTogether(manager, [insertStatement(manager, entity, values)]);
  const [raw] = rows ?? [];
  if (raw === undefined) throw new Error('An INSERT … RETURNING returned no row.');
  return hydrate(manager, entity, raw);
};

/** `INSERT INTO … (…) VALUES (…) RETURNING *`; columns left out take their defaults. */
export const insertStatement = <Row extends ObjectLiteral>(
  manager: EntityManager,
  entity: EntityTarget<Row>,
  values: Partial<Row>,
): string => {
  const { names, literals } = columnLiterals(manager, entity, values);
  const table = quotedTable(manager, entity);
  return names.length === 0
    ? `INSERT INTO ${table} DEFAULT VALUES RETURNING *`
    : `INSERT INTO ${table} (${names.join(', ')}) VALUES (${literals.join(', ')}) RETURNING *`;
};
