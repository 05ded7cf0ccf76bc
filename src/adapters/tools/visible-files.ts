import type { Dirent } from 'node:fs';
import { lstat, readdir, readFile, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import ignore, { type Ignore } from 'ignore';

/** A file the walk found: its path relative to the working directory, and where it is. */
export interface VisibleFile {
  relative: string;
  absolute: string;
}

interface IgnoreLayer {
  /** The folder the rules belong to, relative to the working directory ('' for its root). */
  dir: string;
  rules: Ignore;
}

/**
 * A16, X1: the files `search` and `glob` see under a folder of the working directory: `.git/`
 * skipped, whatever a `.gitignore` (the root's, the ancestors' of the folder and the nested
 * ones) ignores left out, and a symbolic link followed only when it stays inside the working
 * directory or one of its linked roots (M9), never out and never round in a loop. The walk
 * stops after `maxEntries` entries; `truncated` then says so.
 */
export class VisibleFiles {
  truncated = false;
  private visited = 0;

  constructor(
    private readonly roots: readonly string[],
    private readonly maxEntries: number,
  ) {}

  /** Real paths of the working directory and its linked roots (those that exist). */
  static async roots(workingDir: string, linkedRoots: readonly string[] = []): Promise<string[]> {
    const all = await Promise.all([workingDir, ...linkedRoots].map((r) => realpath(r).catch(() => null)));
    return all.filter((r): r is string => r !== null);
  }

  /** Walks `startRelative` (a confined folder, relative to `workingDir`). */
  async *walk(workingDir: string, startRelative: string): AsyncGenerator<VisibleFile> {
    const start = toPosix(path.normalize(startRelative)).replace(/^\.$/, '');
    const layers: IgnoreLayer[] = [];
    // The ancestors' rules apply inside the folder too, as git applies them.
    const parts = start === '' ? [] : start.split('/');
    for (let i = 0; i < parts.length; i++) {
      const dir = parts.slice(0, i).join('/');
      const layer = await this.layer(path.join(workingDir, dir), dir);
      if (layer !== undefined) layers.push(layer);
    }
    const absolute = path.join(workingDir, start);
    yield* this.folder(absolute, start, await realpath(absolute), layers, new Set());
  }

  private async *folder(
    absolute: string,
    relative: string,
    real: string,
    layers: readonly IgnoreLayer[],
    seen: Set<string>,
  ): AsyncGenerator<VisibleFile> {
    if (seen.has(real)) return;
    seen.add(real);
    const own = await this.layer(absolute, relative);
    const rules = own === undefined ? layers : [...layers, own];
    let entries: Dirent[];
    try {
      entries = await readdir(absolute, { withFileTypes: true });
    } catch {
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (this.visited >= this.maxEntries) {
        this.truncated = true;
        return;
      }
      this.visited++;
      if (entry.name === '.git') continue;
      const childAbsolute = path.join(absolute, entry.name);
      const childRelative = relative === '' ? entry.name : `${relative}/${entry.name}`;
      let childReal = path.join(real, entry.name);
      let isDirectory = entry.isDirectory();
      let isFile = entry.isFile();
      if (entry.isSymbolicLink()) {
        const target = await realpath(childAbsolute).catch(() => null);
        // X1: a link that leads out of the agent's folders is not followed.
        if (target === null || !this.roots.some((root) => isInside(root, target))) continue;
        const info = await stat(target).catch(() => null);
        if (info === null) continue;
        childReal = target;
        isDirectory = info.isDirectory();
        isFile = info.isFile();
      }
      if (ignored(rules, childRelative, isDirectory)) continue;
      if (isDirectory) yield* this.folder(childAbsolute, childRelative, childReal, rules, seen);
      else if (isFile) yield { relative: childRelative, absolute: childAbsolute };
    }
  }

  /** A folder's `.gitignore`, read only when it is a regular file (a link could lead out, X1). */
  private async layer(absolute: string, relative: string): Promise<IgnoreLayer | undefined> {
    const file = path.join(absolute, '.gitignore');
    const info = await lstat(file).catch(() => null);
    if (info === null || !info.isFile()) return undefined;
    const text = await readFile(file, 'utf8').catch(() => '');
    return { dir: relative, rules: ignore().add(text) };
  }
}

/** Git's precedence: the deepest `.gitignore` that has a say about a path decides. */
function ignored(layers: readonly IgnoreLayer[], relative: string, isDirectory: boolean): boolean {
  let result = false;
  for (const layer of layers) {
    const inner = layer.dir === '' ? relative : relative.slice(layer.dir.length + 1);
    const verdict = layer.rules.test(isDirectory ? `${inner}/` : inner);
    if (verdict.ignored) result = true;
    else if (verdict.unignored) result = false;
  }
  return result;
}

export const isInside = (root: string, candidate: string): boolean => {
  const relative = path.relative(root, candidate);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
};

export const toPosix = (p: string): string => p.split(path.sep).join('/');
