import type { FindOptionsWhere, ObjectLiteral, QueryDeepPartialEntity, Repository } from 'typeorm';
import { NotFoundError } from '../../core/errors';
import { isUuid } from './ids';
import { hydrateAll } from './statements-together';

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
  if (!found) throw new NotFoundError(`No ${what} with id ${id} in this workspace.`);
};

/**
 * `updateById`, and the row as it stands after it, in one statement (`UPDATE … RETURNING *`,
 * read back through the entity): T3, a turn's card ref and its finish.
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
      : await rows
          .createQueryBuilder()
          .update()
          .set(values)
          .where('id = :id', { id })
          .returning('*')
          .execute()
          .then(
            (result) => hydrateAll(rows.manager, rows.target, result.raw as Record<string, unknown>[])[0],
          );
  if (!row) throw new NotFoundError(`No ${what} with id ${id} in this workspace.`);
  return row;
};

/** Only the named columns, whatever else the patch carries at runtime; `undefined` leaves one as is. */
const patchValues = <Row extends ObjectLiteral>(
  patch: object,
  columns: readonly string[],
): QueryDeepPartialEntity<Row> =>
  Object.fromEntries(
    Object.entries(patch).filter(([key, value]) => value !== undefined && columns.includes(key)),
  ) as QueryDeepPartialEntity<Row>;
