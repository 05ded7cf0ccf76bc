import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * AGENTS.md is a map, short enough to read whole: every folder under `src/` that holds `.ts`
 * files has a line naming it (`` `src/…` ``), and the file stays within 8 KB. Per-file notes go in
 * `docs/code-map.md`.
 */
const root = path.join(__dirname, '../../..');
const AGENTS = path.join(root, 'AGENTS.md');
const MAX_BYTES = 8192;

/** Every folder under `dir` (itself included) holding `.ts` files, relative to the root. */
const foldersWithSources = (dir: string): string[] => {
  const entries = readdirSync(dir, { withFileTypes: true });
  const here = entries.some((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    ? [path.relative(root, dir).split(path.sep).join('/')]
    : [];
  return [
    ...here,
    ...entries.flatMap((entry) =>
      entry.isDirectory() ? foldersWithSources(path.join(dir, entry.name)) : [],
    ),
  ];
};

/** The folders AGENTS.md names as `` `src/…` `` (a trailing slash allowed). */
const namedFolders = (map: string): Set<string> =>
  new Set([...map.matchAll(/`(src(?:\/[\w.-]+)*)\/?`/g)].flatMap((match) => (match[1] ? [match[1]] : [])));

describe('AGENTS.md is a map of src', () => {
  const map = readFileSync(AGENTS, 'utf8');

  it('reads folder names the way they are written', () => {
    expect(namedFolders('- `src/core/engine/turn` — a turn; `src/app/` and `src` too')).toEqual(
      new Set(['src/core/engine/turn', 'src/app', 'src']),
    );
  });

  it('has a line for every folder under src holding .ts files', () => {
    const folders = foldersWithSources(path.join(root, 'src'));
    expect(folders.length).toBeGreaterThan(50);
    const named = namedFolders(map);
    expect(folders.filter((folder) => !named.has(folder))).toEqual([]);
  });

  it(`is at most ${MAX_BYTES} bytes (per-file notes go in docs/code-map.md)`, () => {
    expect(statSync(AGENTS).size).toBeLessThanOrEqual(MAX_BYTES);
  });
});
