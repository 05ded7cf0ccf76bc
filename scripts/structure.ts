import path from 'node:path';
import type { FunctionLength } from './structure/functions';
import { importCycles, importGraph, ROOT, sourceFiles } from './structure/import-graph';
import {
  allFunctions,
  bigFolders,
  FILE_LINES,
  FOLDER_FILES,
  FUNCTION_LINES,
  folders,
  lineCount,
  longCoreFunctions,
  longFiles,
  relativeToRoot as relative,
  tsFilesIn,
} from './structure/shape-goals';

/**
 * `npm run structure`: the figures of the source tree's shape, each beside its goal (AGENTS.md):
 * files of at most 300 lines in `src`, functions of at most 80 lines in `src/core`, folders of at
 * most 20 `.ts` files (catalogs of one kind exempt), no import cycle. Anyone can reproduce them.
 */
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
const functions = allFunctions(files);
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

const overLong = longFiles(files);
print(`Files in src over ${FILE_LINES} lines: ${overLong.length} (goal 0)`);
list(overLong.map(([file, count]) => `${file} ${count}`));

const longFunctions = longCoreFunctions(functions);
print(`Functions in src/core over ${FUNCTION_LINES} lines: ${longFunctions.length} (goal 0)`);
list(longFunctions.map(showFunction));

const overFull = bigFolders(src);
print(`Folders in src over ${FOLDER_FILES} .ts files (catalogs exempt): ${overFull.length} (goal 0)`);
list(overFull.map(([dir, count]) => `${dir} ${count}`));

const cycles = importCycles(importGraph(files));
print(`Import cycles in src: ${cycles.length} (goal 0)`);
list(cycles.map((cycle) => cycle.join(' ⇄ ')));

// The library rules live inside test/unit/architecture/import-boundaries.test.ts, not in a module
// a script can import: their violations are that test's to report.
print('Import-boundary violations: see npx jest test/unit/architecture/import-boundaries.test.ts (goal 0)');
