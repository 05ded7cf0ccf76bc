import type { FindOptionsWhere, ObjectLiteral, QueryDeepPartialEntity, Repository } from 'typeorm';
import { NotFoundError } from '../../core/errors';
import { columnLiterals, quotedTable } from './column-literal';
import { isUuid } from './ids';
import { deferStatement } from './pending-statements';
import { InferredStatements, type StatementContext, statementContext } from './prepared-statement';
import { hydrateFirst, queryTogether, sqlLiteral, textLiteral } from './statements-together';

/**
 * Applies a patch to one row. Only the named columns are written, whatever else the patch
 * object carries at runtime (never `id` or `workspaceId`: A2), and `undefined` means "leave
 * as is". A row that does not exist, or that row-level security hides (another workspace's),
 * is a NotFoundError, so a tenant learns nothing about it.
 */
export const updateById = async <Row extends ObjectLiteral & { id: string }>(
  rows: Repository<Row>,
  id: string,
  patch: object,
  columns: readonly (keyof Row & string)[],
  what: string,
): Promise<void> => {
  const where = { id } as FindOptionsWhere<Row>;
  const values = patchValues<Row>(patch, columns);
  const found =
    isUuid(id) &&
    (Object.keys(values).length === 0
      ? await rows.existsBy(where)
      : Boolean((await rows.update(where, values)).affected));
  if (!found) throw new NotFoundError(missingRow(what, id));
};

/**
 * `updateById`, and the row as it stands after it, in one statement (`UPDATE … RETURNING *`,
 * read back through the entity): T3, a turn's card ref and its finish. Sent as a simple query
 * with its values as literals, so that what the transaction owes goes in the same round trip.
 * A missing row fails the statement on the server (`summon_row_required`), so a message that
 * carries its transaction's COMMIT commits nothing then (`commitWithNextMessage`).
 */
export const updateByIdReturning = async <Row extends ObjectLiteral & { id: string }>(
  rows: Repository<Row>,
  id: string,
  patch: object,
  columns: readonly (keyof Row & string)[],
  what: string,
  more?: MoreTerms,
): Promise<Row> => {
  const values = patchValues<Row>(patch, columns);
  const row = !isUuid(id)
    ? null
    : Object.keys(values).length === 0 && more === undefined
      ? await rows.findOneBy({ id } as FindOptionsWhere<Row>)
      : await queryTogether(rows.manager, [
          requiredReturning(updateStatement(rows, id, values, '*', more), what, id),
        ]).then(([raws]) => hydrateFirst(rows.manager, rows.target, raws));
  if (!row) throw new NotFoundError(missingRow(what, id));
  return row;
};

/**
 * `SET` terms computed from the row's own values (`input_tokens = input_tokens + $n`), written
 * after the patch's in the same statement (T3: a run's usage with its finish, one row version).
 * `terms` numbers its parameters from `first`; `shape` names the terms for the prepared cache.
 */
export interface MoreTerms {
  shape: string;
  terms: (first: number) => string[];
  args: readonly string[];
}

/**
 * `UPDATE … SET … WHERE id = $n RETURNING …`, prepared (T3: one statement per set of columns,
 * each value's type its column's), and the values as literals: the statement's text (made
 * only for a set of columns not met before) and the arguments of its run, the id last.
 */
const updateStatement = <Row extends ObjectLiteral>(
  rows: Repository<Row>,
  id: string,
  values: object,
  returning: '*' | '1',
  more?: MoreTerms,
): { shape: string; text: () => string; args: string[]; context: StatementContext } => {
  const { names, literals, shape } = columnLiterals(rows.manager, rows.target, values);
  const table = quotedTable(rows.manager, rows.target);
  const first = names.length + 1;
  literals.push(...(more?.args ?? []), sqlLiteral(id));
  const idAt = literals.length;
  return {
    shape: `${returning}${table}${shape}${more === undefined ? '' : `+${more.shape}`}`,
    text: () => {
      const set = [...names.map((name, i) => `${name} = $${i + 1}`), ...(more?.terms(first) ?? [])];
      return `UPDATE ${table} SET ${set.join(', ')} WHERE "id" = $${idAt}::uuid RETURNING ${returning}`;
    },
    args: literals,
    context: statementContext(rows.manager),
  };
};

type Found = ReturnType<typeof updateStatement>;

/**
 * `UPDATE … RETURNING *` that fails on the server when it found no row (`summon_row_required`,
 * read back as a NotFoundError): the check is the outer side of the join, always run.
 */
const requiredReturning = ({ shape, text, args, context }: Found, what: string, id: string) => {
  const n = args.length + 1;
  args.push(textLiteral(missingRow(what, id)));
  return updates.withShape(
    `R${shape}`,
    () => `WITH found AS (${text()})
     SELECT found.* FROM (SELECT summon_row_required(EXISTS (SELECT 1 FROM found), $${n}::text)) AS required
       LEFT JOIN found ON true`,
    args,
    context,
  );
};

/** Updates' statements, their arguments' types taken from where they are used. */
const updates = new InferredStatements();

/**
 * `updateById` sent with the transaction's next message (T3, `deferStatement`): the row's
 * absence still fails the transaction on the server (`summon_row_required`, read back as the
 * same NotFoundError), but at that message — at the latest the COMMIT — not at this call.
 */
export const deferUpdateById = async <Row extends ObjectLiteral & { id: string }>(
  rows: Repository<Row>,
  id: string,
  patch: object,
  columns: readonly (keyof Row & string)[],
  what: string,
): Promise<void> => {
  const missing = missingRow(what, id);
  if (!isUuid(id)) throw new NotFoundError(missing);
  const values = patchValues<Row>(patch, columns);
  const table = quotedTable(rows.manager, rows.target);
  const found: Found =
    Object.keys(values).length === 0
      ? {
          shape: `E${table}`,
          text: () => `SELECT 1 FROM ${table} WHERE "id" = $1::uuid`,
          args: [sqlLiteral(id)],
          context: statementContext(rows.manager),
        }
      : updateStatement(rows, id, values, '1');
  const n = found.args.length + 1;
  found.args.push(textLiteral(missing));
  await deferStatement(
    rows.manager,
    updates.withShape(
      `D${found.shape}`,
      () =>
        `WITH found AS (${found.text()}) SELECT summon_row_required(EXISTS (SELECT 1 FROM found), $${n}::text)`,
      found.args,
      found.context,
    ),
  );
};

/** What a missing row (or one row-level security hides, A2) is called, whichever way it was found missing. */
const missingRow = (what: string, id: string) => `No ${what} with id ${id} in this workspace.`;

/** Only the named columns, whatever else the patch carries at runtime; `undefined` leaves one as is. */
const patchValues = <Row extends ObjectLiteral>(
  patch: object,
  columns: readonly string[],
): QueryDeepPartialEntity<Row> =>
  Object.fromEntries(
    Object.entries(patch).filter(([key, value]) => value !== undefined && columns.includes(key)),
  ) as QueryDeepPartialEntity<Row>;
