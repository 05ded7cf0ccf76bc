import type { EntityManager } from 'typeorm';
import type { Statement } from '../prepared-statement';
import { queryTogether } from '../statements-together';
import { directoryCacheOf } from './directory-cache';
import { readAgain, versionRead } from './directory-version';

type Rows = Record<string, unknown>[];

/** T7: statements sent together, some of them (`cachedAt`) reads of the directory a process may keep. */
export interface CachedRead {
  /** The workspace's version statement (`DIRECTORY_VERSION`): sent first, in the same message. */
  version: Statement;
  /** The workspace by id (a tenant's), or how it was named (a slug, a team), then remembered. */
  workspace: { id: string } | { locator: string };
  /** What the cached statements read, within the workspace (they take the same arguments each time). */
  key: string;
  statements: readonly Statement[];
  /** Which of `statements` the cache may answer. */
  cachedAt: readonly number[];
  /** Whether the cached statements' rows may be kept for the workspace (default: always). */
  keep?: (cached: Rows[], workspaceId: string) => boolean;
  /** The settings a transaction of its own starts with (`readAgain`). */
  enter: Statement | null;
}

/**
 * T7: every statement's rows, in order. The cached ones come from this process's cache when the
 * workspace's version, read in the same message as the others, is the one they were read under
 * (no statement and no round trip more); otherwise every statement is sent and the cached ones
 * kept. A version that moved on drops the workspace's entries and reads them again (one round
 * trip more, only then). Entries are kept per workspace: the version statement names the
 * workspace, and only its own entries are looked at (A2).
 */
export async function readThroughCache(manager: EntityManager, read: CachedRead): Promise<Rows[]> {
  const cache = directoryCacheOf(manager.connection);
  const found =
    'id' in read.workspace
      ? cache.get<Rows[]>(read.workspace.id, read.key)
      : cache.find<Rows[]>(read.workspace.locator, read.key);
  const cachedStatements = read.cachedAt.map((at) => read.statements[at] as Statement);
  const remember = (versions: Rows | undefined, cached: Rows[]) => {
    const current = versionRead(versions);
    if (current === null) return;
    if ('id' in read.workspace && read.workspace.id !== current.workspaceId) return;
    if (read.keep !== undefined && !read.keep(cached, current.workspaceId)) return;
    const locator = 'locator' in read.workspace ? read.workspace.locator : undefined;
    cache.put(current.workspaceId, current.version, read.key, cached, locator);
  };
  if (found === undefined) {
    const [versions, ...rows] = await queryTogether(manager, [read.version, ...read.statements]);
    remember(
      versions,
      read.cachedAt.map((at) => rows[at] ?? []),
    );
    return rows;
  }
  const live = read.statements.filter((_, at) => !read.cachedAt.includes(at));
  const [versions, ...liveRows] = await queryTogether(manager, [read.version, ...live]);
  const current = versionRead(versions);
  let cached = found.value;
  if (current?.workspaceId !== found.workspaceId || current.version !== found.version) {
    cache.drop(found.workspaceId);
    const [again, ...rows] = await readAgain(manager, [read.version, ...cachedStatements], read.enter);
    cached = rows;
    remember(again, rows);
  }
  let nextLive = 0;
  return read.statements.map((_, at) => {
    const cachedIndex = read.cachedAt.indexOf(at);
    return cachedIndex >= 0 ? (cached[cachedIndex] ?? []) : (liveRows[nextLive++] ?? []);
  });
}
