import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { type FunctionLength, functionLengths } from './structure/functions';
import { importCycles, importGraph, ROOT, sourceFiles } from './structure/import-graph';

/**
 * `npm run structure`: the figures of the source tree's shape, each beside its goal (AGENTS.md):
 * files of at most 300 lines in `src`, functions of at most 80 lines in `src/core`, folders of at
 * most 20 `.ts` files (catalogs of one kind exempt), no import cycle. Anyone can reproduce them.
 */
const FILE_LINES = 300;
const FUNCTION_LINES = 80;
const FOLDER_FILES = 20;
/** Folders holding one kind of thing each, exempt from the folder size goal. */
const CATALOGS = new Set(['src/storage/entities', 'src/storage/store/repositories', 'src/core/ports']);

const relative = (file: string) => path.relative(ROOT, file);
const lineCount = (file: string) => readFileSync(file, 'utf8').split('\n').length - 1;
const tsFilesIn = (dir: string) => readdirSync(dir).filter((name) => name.endsWith('.ts')).length;

const folders = (dir: string): string[] => [
  dir,
  ...readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? folders(path.join(dir, entry.name)) : [],
  ),
];

const largest = <T>(items: readonly T[], size: (item: T) => number): T | undefined =>
  items.reduce<T | undefined>(
    (best, item) => (best === undefined || size(item) > size(best) ? item : best),
    undefined,
  );

const showFunction = (fn: FunctionLength | undefined) =>
  fn ? `${fn.file} ${fn.name} (${fn.lines} lines)` : 'none';

const src = path.join(ROOT, 'src');
const files = sourceFiles(src);
const lines = new Map(files.map((file) => [relative(file), lineCount(file)]));
const functions = files.flatMap((file) => functionLengths(file, ROOT));
const coreFunctions = functions.filter((fn) => fn.file.startsWith('src/core/'));

// Piped into `head`: stop quietly once the reader has gone.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});
const print = (text = '') => process.stdout.write(`${text}\n`);
const list = (items: readonly string[]) => {
  for (const item of items) print(`  ${item}`);
};

print(`Files per src/core/engine folder (goal ≤ ${FOLDER_FILES} each):`);
const engine = path.join(src, 'core/engine');
list(folders(engine).map((dir) => `${relative(dir).padEnd(32)} ${tsFilesIn(dir)}`));
print();

const [bigFile, bigLines] = largest([...lines], ([, count]) => count) ?? ['none', 0];
print(`Largest file in src: ${bigFile} (${bigLines} lines; goal ≤ ${FILE_LINES})`);
print(`Largest function in src: ${showFunction(largest(functions, (fn) => fn.lines))}`);
print(
  `Largest function in src/core: ${showFunction(largest(coreFunctions, (fn) => fn.lines))} (goal ≤ ${FUNCTION_LINES})`,
);
print();

const longFiles = [...lines].filter(([, count]) => count > FILE_LINES).sort((a, b) => b[1] - a[1]);
print(`Files in src over ${FILE_LINES} lines: ${longFiles.length} (goal 0)`);
list(longFiles.map(([file, count]) => `${file} ${count}`));

const longFunctions = coreFunctions
  .filter((fn) => fn.lines > FUNCTION_LINES)
  .sort((a, b) => b.lines - a.lines);
print(`Functions in src/core over ${FUNCTION_LINES} lines: ${longFunctions.length} (goal 0)`);
list(longFunctions.map(showFunction));

const bigFolders = folders(src)
  .map((dir) => [relative(dir), tsFilesIn(dir)] as const)
  .filter(([dir, count]) => count > FOLDER_FILES && !CATALOGS.has(dir))
  .sort((a, b) => b[1] - a[1]);
print(`Folders in src over ${FOLDER_FILES} .ts files (catalogs exempt): ${bigFolders.length} (goal 0)`);
list(bigFolders.map(([dir, count]) => `${dir} ${count}`));

const cycles = importCycles(importGraph(files));
print(`Import cycles in src: ${cycles.length} (goal 0)`);
list(cycles.map((cycle) => cycle.join(' ⇄ ')));

// The library rules live inside test/unit/architecture/import-boundaries.test.ts, not in a module
// a script can import: their violations are that test's to report.
print('Import-boundary violations: see npx jest test/unit/architecture/import-boundaries.test.ts (goal 0)');
