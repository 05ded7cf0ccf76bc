import type { EntityManager, EntityTarget, ObjectLiteral } from 'typeorm';
import { ValidationError } from '../../core/errors';
import { columnLiterals, quotedTable } from './column-literal';
import { isUuid } from './ids';
import { deferStatement } from './pending-statements';
import { InferredStatements, type PreparedCall, statementContext } from './prepared-statement';
import { hydrate, queryTogether } from './statements-together';

/**
 * One row inserted and read back as stored (defaults, generated ids and sequence numbers
 * included): one `INSERT … RETURNING *`, without the per-entity bookkeeping of `save` (T3: a
 * turn's hot path inserts a conversation, messages and runs). Sent as a simple query, a
 * prepared statement run with its values as literals (`column-literal.ts`), so that what the
 * transaction owes (its START TRANSACTION) goes in the same round trip.
 */
export const insertReturning = async <Row extends ObjectLiteral>(
  manager: EntityManager,
  entity: EntityTarget<Row>,
  values: Partial<Row>,
): Promise<Row> => {
  const [rows] = await queryTogether(manager, [insertStatement(manager, entity, values, true)]);
  const [raw] = rows ?? [];
  if (raw === undefined) throw new Error('An INSERT … RETURNING returned no row.');
  return hydrate(manager, entity, raw);
};

/**
 * T3: one row inserted with the id the caller made and not read back (routing's conversation,
 * message and runs: `insertOwed`), owed with `deferStatement` — sent with the transaction's next
 * statement, at the latest its COMMIT. An id that is not a uuid is refused here, before anything
 * is sent (a `ValidationError` naming `what`); a row the database refuses (a foreign key, a
 * unique constraint) fails the transaction at the message it goes with.
 */
export const deferInsert = async <Row extends ObjectLiteral & { id: string }>(
  manager: EntityManager,
  entity: EntityTarget<Row>,
  values: Partial<Row> & { id: string },
  what: string,
): Promise<void> => {
  if (!isUuid(values.id)) throw new ValidationError(`Not a ${what} id: ${JSON.stringify(values.id)}.`);
  await deferStatement(manager, insertStatement(manager, entity, values, false));
};

/**
 * `INSERT INTO … (…) VALUES (…)`, with `RETURNING *` when the row is read back; columns left out
 * take their defaults.
 */
const insertStatement = <Row extends ObjectLiteral>(
  manager: EntityManager,
  entity: EntityTarget<Row>,
  values: Partial<Row>,
  returning: boolean,
): PreparedCall => {
  const { names, literals, shape } = columnLiterals(manager, entity, values);
  const table = quotedTable(manager, entity);
  // T3: prepared, one statement per set of columns and role; each value's type is its column's.
  const text = () => {
    const insert =
      names.length === 0
        ? `INSERT INTO ${table} DEFAULT VALUES`
        : `INSERT INTO ${table} (${names.join(', ')}) VALUES (${literals.map((_, i) => `$${i + 1}`).join(', ')})`;
    return returning ? `${insert} RETURNING *` : insert;
  };
  return inserts.withShape(
    `${returning ? 'R' : 'N'}${table}${shape}`,
    text,
    literals,
    statementContext(manager),
  );
};

/** Inserts' statements, each value's type its column's. */
const inserts = new InferredStatements();
