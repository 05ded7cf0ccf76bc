import type { SqlStoreTx } from '../../../src/storage/store/sql-store';

interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  'Index Cond'?: string;
  Plans?: PlanNode[];
}

/**
 * One index a plan scans, with its condition (absent for a scan in index order alone), and
 * whether a LIMIT above it stops it early.
 */
export interface IndexScan {
  index: string;
  cond: string | undefined;
  limited: boolean;
}

const scansOf = (node: PlanNode, limited = false): IndexScan[] => {
  const below = limited || node['Node Type'] === 'Limit';
  return [
    ...(node['Index Name'] === undefined
      ? []
      : [{ index: node['Index Name'], cond: node['Index Cond'], limited }]),
    ...(node.Plans ?? []).flatMap((child) => scansOf(child, below)),
  ];
};

/**
 * The index scans the planner takes for `sql` in `tx`, scans of whole tables and bitmaps ruled
 * out (the tables a test writes are small, where a scan of the table would do).
 */
export async function indexScansFor(tx: SqlStoreTx, sql: string, params: unknown[]): Promise<IndexScan[]> {
  await tx.query('SET LOCAL enable_seqscan = off');
  await tx.query('SET LOCAL enable_bitmapscan = off');
  return planScans(tx, sql, params);
}

/** The index scans of the plan the planner takes for `sql` in `tx`, as it stands. */
export async function planScans(tx: SqlStoreTx, sql: string, params: unknown[] = []): Promise<IndexScan[]> {
  const [row] = await tx.query<{ 'QUERY PLAN': unknown }>(`EXPLAIN (FORMAT JSON) ${sql}`, params);
  const explained = row?.['QUERY PLAN'];
  const [{ Plan: plan }] = (typeof explained === 'string' ? JSON.parse(explained) : explained) as [
    { Plan: PlanNode },
  ];
  return scansOf(plan);
}

/** The indexes of `table` besides its primary key. */
export async function secondaryIndexes(tx: SqlStoreTx, table: string): Promise<string[]> {
  const rows = await tx.query<{ name: string }>(
    `SELECT i.relname AS name FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid
      WHERE x.indrelid = $1::regclass AND NOT x.indisprimary ORDER BY 1`,
    [table],
  );
  return rows.map((row) => row.name);
}

/**
 * The rows of `table` this connection updated and has not yet reported, and of those the HOT
 * ones (a new version in the same page and no index entry: no indexed column changed). Earlier
 * transactions' counts may still be in them: take two readings and their difference.
 */
export async function updatesSoFar(tx: SqlStoreTx, table: string): Promise<{ updated: number; hot: number }> {
  const [row] = await tx.query<{ updated: string; hot: string }>(
    `SELECT pg_stat_get_xact_tuples_updated($1::regclass)::text AS updated,
            pg_stat_get_xact_tuples_hot_updated($1::regclass)::text AS hot`,
    [table],
  );
  return { updated: Number(row?.updated), hot: Number(row?.hot) };
}
