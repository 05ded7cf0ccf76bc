import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { type FunctionLength, functionLengths } from './functions';
import { ROOT } from './import-graph';

/**
 * The source tree's shape goals (AGENTS.md), shared by `npm run structure` (the figures) and
 * `test/unit/architecture/shape-goals.test.ts` (which fails when one is missed): files of at
 * most 300 lines in `src`, functions of at most 80 lines in `src/core`, folders of at most 20
 * `.ts` files (catalogs of one kind exempt).
 */
export const FILE_LINES = 300;
export const FUNCTION_LINES = 80;
export const FOLDER_FILES = 20;
/** Folders holding one kind of thing each, exempt from the folder size goal. */
export const CATALOGS = new Set([
  'src/storage/entities',
  'src/storage/store/repositories',
  'src/core/ports',
  'src/cli/commands',
]);

export const relativeToRoot = (file: string): string => path.relative(ROOT, file);
export const lineCount = (file: string): number => readFileSync(file, 'utf8').split('\n').length - 1;
export const tsFilesIn = (dir: string): number =>
  readdirSync(dir).filter((name) => name.endsWith('.ts')).length;

/** `dir` and every folder below it. */
export const folders = (dir: string): string[] => [
  dir,
  ...readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? folders(path.join(dir, entry.name)) : [],
  ),
];

/** Files over the line goal, longest first. */
export function longFiles(files: readonly string[]): [string, number][] {
  return files
    .map((file): [string, number] => [relativeToRoot(file), lineCount(file)])
    .filter(([, count]) => count > FILE_LINES)
    .sort((a, b) => b[1] - a[1]);
}

/** Functions of `src/core` over the length goal, longest first. */
export function longCoreFunctions(functions: readonly FunctionLength[]): FunctionLength[] {
  return functions
    .filter((fn) => fn.file.startsWith('src/core/') && fn.lines > FUNCTION_LINES)
    .sort((a, b) => b.lines - a.lines);
}

/** Folders over the file-count goal (catalogs exempt), largest first. */
export function bigFolders(src: string): (readonly [string, number])[] {
  return folders(src)
    .map((dir) => [relativeToRoot(dir), tsFilesIn(dir)] as const)
    .filter(([dir, count]) => count > FOLDER_FILES && !CATALOGS.has(dir))
    .sort((a, b) => b[1] - a[1]);
}

export const allFunctions = (files: readonly string[]): FunctionLength[] =>
  files.flatMap((file) => functionLengths(file, ROOT));
