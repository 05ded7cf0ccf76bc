import path from 'node:path';
import { importGraph, ROOT, sourceFiles } from '../../../scripts/structure/import-graph';

/**
 * The layers stay sealed (AGENTS.md's "may import" column): `core/model` is the bottom,
 * `core/ports` names only it, the configuration stands below everything that reads it, the
 * adapters implement ports and never reach into the engine, and the front ends only translate
 * (P18). Imports are read by the TypeScript compiler's pre-processor, so `import type`,
 * `export … from` and `import()` all count. Every failure lists the offending imports as
 * `file → imported file`.
 */
/** Every file of `src` with the files of `src` it imports, as repository paths. */
const imports: ReadonlyMap<string, readonly string[]> = importGraph(sourceFiles(path.join(ROOT, 'src')));

/** The imports `file → target` of files under `from` whose target `refused` names. */
function offending(from: string, refused: (target: string) => boolean): string[] {
  return [...imports].flatMap(([file, targets]) =>
    file.startsWith(from) ? targets.filter(refused).map((target) => `${file} → ${target}`) : [],
  );
}

/** Imports of an adapter by a front end that are tolerated: none (P18); the list can only shrink. */
const BOTS_IMPORTING_ADAPTERS_ALLOWED: readonly string[] = [];

/** The folder of `src/core` a file is in (`engine`, `model`, …); a file at its root (`errors.ts`) is its own. */
const coreFolder = (file: string): string =>
  file.slice('src/core/'.length).split('/')[0]?.replace(/\.ts$/, '') ?? '';

/** Pairs of `src/core` folders that import each other (`a ⇄ b`, a before b), sorted. */
function mutualCoreFolders(): string[] {
  const edges = new Set<string>();
  for (const [file, targets] of imports) {
    if (!file.startsWith('src/core/')) continue;
    for (const target of targets) {
      if (!target.startsWith('src/core/')) continue;
      const [a, b] = [coreFolder(file), coreFolder(target)];
      if (a !== b) edges.add(`${a} → ${b}`);
    }
  }
  const pairs = new Set<string>();
  for (const edge of edges) {
    const [a = '', b = ''] = edge.split(' → ');
    if (edges.has(`${b} → ${a}`)) pairs.add(a < b ? `${a} ⇄ ${b}` : `${b} ⇄ ${a}`);
  }
  return [...pairs].sort();
}

/** The imports behind one pair, both ways, so a new pair's failure names the files to change. */
function pairImports(pair: string): string[] {
  const [a = '', b = ''] = pair.split(' ⇄ ');
  const across = (x: string, y: string) =>
    offending(`src/core/${x}`, (target) => target.startsWith('src/core/') && coreFolder(target) === y).filter(
      (entry) => coreFolder(entry.split(' → ')[0] ?? '') === x,
    );
  return [...across(a, b), ...across(b, a)];
}

/**
 * Folders of `src/core` that import each other today: a ratchet. A new pair fails; a pair that
 * disappears is to be taken off this list, so it can only shrink.
 */
const MUTUAL_CORE_FOLDERS_ALLOWED: readonly string[] = [
  // attachments/prepare-attachments names the prompt's input; prompt/sections/attachments reads the attachment limits and excerpts.
  'attachments ⇄ prompt',
  // engine/agent-tools/remote-agent reads relay addresses and chains; relays' inbound side and place-remote-note reach into the engine.
  'engine ⇄ relays',
  // W1: engine/agent-tools' schedule_routine checks a proposal and engine/approvals stores a confirmed one (routines/routine-proposal); routines' firing queues a run.
  'engine ⇄ routines',
];

describe('sealed layers', () => {
  it('reads the source files and their imports', () => {
    expect(imports.size).toBeGreaterThan(300);
    expect(imports.get('src/core/ports/store.ts')).toContain('src/core/model/records.ts');
  });

  it('src/core/model imports nothing but src/core/model', () => {
    expect(offending('src/core/model/', (target) => !target.startsWith('src/core/model/'))).toEqual([]);
  });

  it('src/core/ports imports only src/core/model, src/core/errors.ts and other ports', () => {
    const allowed = (target: string) =>
      target.startsWith('src/core/model/') ||
      target.startsWith('src/core/ports/') ||
      target === 'src/core/errors.ts';
    expect(offending('src/core/ports/', (target) => !allowed(target))).toEqual([]);
  });

  it('src/config imports nothing from src/adapters, src/bots, src/app, src/cli or src/storage', () => {
    expect(
      offending('src/config/', (target) => /^src\/(adapters|bots|app|cli|storage)\//.test(target)),
    ).toEqual([]);
  });

  it('src/adapters never imports src/core/engine (it is handed what it needs through ports)', () => {
    expect(offending('src/adapters/', (target) => target.startsWith('src/core/engine/'))).toEqual([]);
  });

  it('src/bots never imports src/adapters (P18), but for the listed imports', () => {
    const found = offending('src/bots/', (target) => target.startsWith('src/adapters/'));
    expect(found.filter((entry) => !BOTS_IMPORTING_ADAPTERS_ALLOWED.includes(entry))).toEqual([]);
    // A listed import that is gone is taken off the list.
    expect(BOTS_IMPORTING_ADAPTERS_ALLOWED.filter((entry) => !found.includes(entry))).toEqual([]);
  });

  it('folders of src/core that import each other are only the listed ones', () => {
    const pairs = mutualCoreFolders();
    const unlisted = pairs.filter((pair) => !MUTUAL_CORE_FOLDERS_ALLOWED.includes(pair));
    expect(unlisted.map((pair) => ({ pair, imports: pairImports(pair) }))).toEqual([]);
    // A listed pair that no longer imports each other is taken off the list.
    expect(MUTUAL_CORE_FOLDERS_ALLOWED.filter((pair) => !pairs.includes(pair))).toEqual([]);
  });
});
