import type { EntityManager, EntityTarget, ObjectLiteral, QueryDeepPartialEntity } from 'typeorm';
import { hydrate } from './statements-together';

/**
 * One row inserted and read back as stored (defaults, generated ids and sequence numbers
 * included): one `INSERT … RETURNING *`, without the per-entity bookkeeping of `save` (T3: a
 * turn's hot path inserts a conversation, messages and runs).
 */
export const insertReturning = async <Row extends ObjectLiteral>(
  manager: EntityManager,
  entity: EntityTarget<Row>,
  values: Partial<Row>,
): Promise<Row> => {
  const result = await manager
    .createQueryBuilder()
    .insert()
    .into(entity)
    .values(values as QueryDeepPartialEntity<Row>)
    .returning('*')
    .execute();
  const [raw] = result.raw as Record<string, unknown>[];
  if (raw === undefined) throw new Error('An INSERT … RETURNING returned no row.');
  return hydrate(manager, entity, raw);
};
