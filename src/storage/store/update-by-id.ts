import type { FindOptionsWhere, ObjectLiteral, QueryDeepPartialEntity, Repository } from 'typeorm';
import { NotFoundError } from '../../core/errors';
import { columnLiterals, quotedTable } from './column-literal';
import { isUuid } from './ids';
import { deferStatement } from './pending-statements';
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
 */
export const updateByIdReturning = async <Row extends ObjectLiteral & { id: string }>(
  rows: Repository<Row>,
  id: string,
  patch: object,
  columns: readonly (keyof Row & string)[],
  what: string,
): Promise<Row> => {
  const values = patchValues<Row>(patch, columns);
  const row = !isUuid(id)
    ? null
    : Object.keys(values).length === 0
      ? await rows.findOneBy({ id } as FindOptionsWhere<Row>)
      : await queryTogether(rows.manager, [updateStatement(rows, id, values, '*')]).then(([raws]) =>
          hydrateFirst(rows.manager, rows.target, raws),
        );
  if (!row) throw new NotFoundError(missingRow(what, id));
  return row;
};

/** `UPDATE … SET … WHERE id = … RETURNING …` with the values as literals. */
const updateStatement = <Row extends ObjectLiteral>(
  rows: Repository<Row>,
  id: string,
  values: object,
  returning: '*' | '1',
): string => {
  const { names, literals } = columnLiterals(rows.manager, rows.target, values);
  const set = names.map((name, i) => `${name} = ${literals[i]}`).join(', ');
  return `UPDATE ${quotedTable(rows.manager, rows.target)} SET ${set} WHERE "id" = ${sqlLiteral(id)} RETURNING ${returning}`;
};

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
  const found =
    Object.keys(values).length === 0
      ? `SELECT 1 FROM ${table} WHERE "id" = ${sqlLiteral(id)}`
      : updateStatement(rows, id, values, '1');
  await deferStatement(
    rows.manager,
    `WITH found AS (${found}) SELECT summon_row_required(EXISTS (SELECT 1 FROM found), ${textLiteral(missing)})`,
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
