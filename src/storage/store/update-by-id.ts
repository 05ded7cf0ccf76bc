import type { FindOptionsWhere, ObjectLiteral, QueryDeepPartialEntity, Repository } from 'typeorm';
import { NotFoundError } from '../../core/errors';
import { isUuid } from './ids';

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
  const values = Object.fromEntries(
    Object.entries(patch).filter(([key, value]) => value !== undefined && columns.includes(key)),
  ) as QueryDeepPartialEntity<Row>;
  const found =
    isUuid(id) &&
    (Object.keys(values).length === 0
      ? await rows.existsBy(where)
      : Boolean((await rows.update(where, values)).affected));
  if (!found) throw new NotFoundError(`No ${what} with id ${id} in this workspace.`);
};
