import type { EntityManager } from 'typeorm';
import { sentItsLast } from '../pending-statements';
import { PreparedStatement, type Statement } from '../prepared-statement';
import { sendTogether } from '../simple-query-message';
import { queryTogether } from '../statements-together';

type Rows = Record<string, unknown>[];

/**
 * T7: a workspace's directory version: its row's number and the transaction that wrote it
 * (`xmin`: a bump rolled back is never seen again, whatever number a later one takes).
 */
const versionOf = (workspace: string, types: string[]) =>
  new PreparedStatement(
    types,
    `SELECT workspace_id, xmin::text || ':' || version AS version FROM directory_versions WHERE workspace_id = ${workspace}`,
  );

/** T7: the version statements, by how the workspace is named. */
export const DIRECTORY_VERSION = {
  id: versionOf('$1', ['uuid']),
  slug: versionOf('(SELECT id FROM workspaces WHERE slug = $1)', ['text']),
  team: versionOf('(SELECT workspace_id FROM platform_bindings WHERE platform = $1 AND external_id = $2)', [
    'text',
    'text',
  ]),
};

/** Every version statement (`warm-connections.ts` prepares them at start). */
export const DIRECTORY_VERSION_PREPARED: readonly PreparedStatement[] = Object.values(DIRECTORY_VERSION);

/** A version statement's answer: the workspace and its version; null when it has no row. */
export const versionRead = (rows: Rows | undefined): { workspaceId: string; version: string } | null => {
  const [row] = rows ?? [];
  if (row === undefined || row.workspace_id === null || row.version === null) return null;
  return { workspaceId: String(row.workspace_id), version: String(row.version) };
};

/**
 * T7: statements read again once the cache was found stale: in the transaction while it is
 * open; once its COMMIT went with its last message (a turn's claim), in a read-only transaction
 * of its own on the same connection, `enter` (the tenant's settings, A2) first, one message.
 */
export async function readAgain(
  manager: EntityManager,
  statements: readonly Statement[],
  enter: Statement | null,
): Promise<Rows[]> {
  const runner = manager.queryRunner;
  if (!runner) throw new Error('A store transaction always has a query runner.');
  if (!sentItsLast(runner)) return queryTogether(manager, statements);
  const front: Statement[] = ['START TRANSACTION READ ONLY', ...(enter === null ? [] : [enter])];
  const rows = await sendTogether(runner, [...front, ...statements, 'COMMIT']);
  return rows.slice(front.length, front.length + statements.length);
}
