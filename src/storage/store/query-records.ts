import type { EntityManager } from 'typeorm';

/**
 * Runs one parameterised statement ($1, $2…) on the transaction's own runner and returns its
 * rows, whatever the statement (`manager.query` would hand UPDATE/DELETE back as [rows, count]).
 */
export const queryRecords = async <R extends object = Record<string, unknown>>(
  manager: EntityManager,
  sql: string,
  params: readonly unknown[] = [],
): Promise<R[]> => {
  const runner = manager.queryRunner;
  if (!runner) throw new Error('A store transaction always has a query runner.');
  return (await runner.query(sql, [...params], true)).records as R[];
};
