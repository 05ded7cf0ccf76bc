import type { DataSource } from 'typeorm';

/** T7: the most workspaces one process keeps, and the most entries it keeps for each. */
export const CACHE_BOUNDS = { workspaces: 1024, entries: 256 } as const;

interface Workspace {
  /** `directory_versions`' row as read (`xmin:version`): what every entry was read under. */
  version: string;
  entries: Map<string, unknown>;
}

/** An entry found for a workspace, with the version it was read under. */
export interface Cached<T> {
  workspaceId: string;
  version: string;
  value: T;
}

/**
 * T7: a process's copy of what only the directory commands write, per workspace: each entry is
 * served only once its workspace's version, read in the same transaction, is the one it was
 * read under. Bounded: the workspace used least recently goes first, then its oldest entry
 * (a `Map` keeps insertion order; a use moves a workspace to the end). `locators` remembers
 * which workspace a slug or a team named, a guess checked by the version read like the rest.
 */
export class DirectoryCache {
  private readonly workspaces = new Map<string, Workspace>();
  private readonly locators = new Map<string, string>();

  constructor(private readonly bounds: { workspaces: number; entries: number } = CACHE_BOUNDS) {}

  get<T>(workspaceId: string, key: string): Cached<T> | undefined {
    const workspace = this.workspaces.get(workspaceId);
    if (workspace === undefined || !workspace.entries.has(key)) return undefined;
    this.workspaces.delete(workspaceId);
    this.workspaces.set(workspaceId, workspace);
    return { workspaceId, version: workspace.version, value: workspace.entries.get(key) as T };
  }

  /** The entry of the workspace `locator` last named. */
  find<T>(locator: string, key: string): Cached<T> | undefined {
    const workspaceId = this.locators.get(locator);
    return workspaceId === undefined ? undefined : this.get(workspaceId, key);
  }

  /** Keeps `value`, read under `version`; a workspace kept under another version is dropped first. */
  put(workspaceId: string, version: string, key: string, value: unknown, locator?: string): void {
    let workspace = this.workspaces.get(workspaceId);
    if (workspace === undefined || workspace.version !== version) {
      workspace = { version, entries: new Map() };
    }
    this.workspaces.delete(workspaceId);
    this.workspaces.set(workspaceId, workspace);
    workspace.entries.delete(key);
    workspace.entries.set(key, value);
    if (locator !== undefined) {
      this.locators.delete(locator);
      this.locators.set(locator, workspaceId);
    }
    this.trim(workspace);
  }

  /** Forgets a workspace whose version moved on. */
  drop(workspaceId: string): void {
    this.workspaces.delete(workspaceId);
  }

  /** How many entries are kept, over every workspace. */
  size(): number {
    let entries = 0;
    for (const workspace of this.workspaces.values()) entries += workspace.entries.size;
    return entries;
  }

  private trim(workspace: Workspace): void {
    for (const key of workspace.entries.keys()) {
      if (workspace.entries.size <= this.bounds.entries) break;
      workspace.entries.delete(key);
    }
    for (const id of this.workspaces.keys()) {
      if (this.workspaces.size <= this.bounds.workspaces) break;
      this.workspaces.delete(id);
    }
    for (const locator of this.locators.keys()) {
      if (this.locators.size <= this.bounds.workspaces) break;
      this.locators.delete(locator);
    }
  }
}

const caches = new WeakMap<DataSource, DirectoryCache>();

/** T7: the cache of one data source: one per process in production, one per store in tests. */
export function directoryCacheOf(dataSource: DataSource): DirectoryCache {
  let cache = caches.get(dataSource);
  if (cache === undefined) {
    cache = new DirectoryCache();
    caches.set(dataSource, cache);
  }
  return cache;
}
