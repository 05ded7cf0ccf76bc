import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import picomatch from 'picomatch';
import { z } from 'zod';
import { BoundedListing } from '../../core/tools/bounded-listing';
import { ALL_MODES, defineTool } from '../../core/tools/tool-definition';
import { confinePath } from './confined-path';
import { fileFailure } from './file-failure';
import { toPosix, VisibleFiles } from './visible-files';

const MAX_FILES = 500;
const MAX_OUTPUT_BYTES = 24_000;
const MAX_ENTRIES = 50_000;

/**
 * `glob` (A16): the files under a folder whose path matches a pattern, newest first, without
 * what `.gitignore` ignores or `.git/`; bounded. Read-only, so every mode has it (A9);
 * confined like the file tools (X1).
 */
export const globTool = defineTool({
  name: 'glob',
  description: `Find files in your working directory by glob pattern, e.g. "**/*.ts" or "src/**/*.test.ts" (relative to path). Files ignored by .gitignore and .git/ are skipped. Lists at most ${MAX_FILES} paths, most recently modified first.`,
  input: z.object({
    pattern: z
      .string()
      .min(1)
      .describe('The glob, relative to path: "*" within a folder, "**" across folders.'),
    path: z
      .string()
      .optional()
      .describe('Folder to search, relative to your working directory; "." when absent.'),
  }),
  access: 'read',
  modes: ALL_MODES,
  classify: () => [],
  run: async (input, scope, signal) => {
    const pattern = input.pattern.replace(/^\.\//, '');
    // X1: a pattern reaches no further than the folder it is matched in.
    if (path.posix.isAbsolute(pattern) || pattern.split('/').includes('..')) {
      return {
        ok: false,
        output: `Refused: the pattern ${input.pattern} must be relative to the folder searched, without "..": give the folder as path.`,
      };
    }
    const requested = input.path ?? '.';
    const target = await confinePath(scope.workingDir, requested, scope.linkedRoots);
    if (!target.ok) return { ok: false, output: target.reason };
    const root = await realpath(scope.workingDir);
    const walker = new VisibleFiles(await VisibleFiles.roots(root, scope.linkedRoots), MAX_ENTRIES);
    const start = toPosix(path.relative(root, target.absolute));
    const match = picomatch(pattern, { dot: true });
    const found: { relative: string; modified: number }[] = [];
    try {
      if (!(await stat(target.absolute)).isDirectory())
        return { ok: false, output: `${requested} is not a folder.` };
      for await (const file of walker.walk(root, start)) {
        if (signal.aborted) return { ok: false, output: 'Glob stopped: the turn was stopped.' };
        if (!match(start === '' ? file.relative : path.posix.relative(start, file.relative))) continue;
        const info = await stat(file.absolute).catch(() => null);
        if (info !== null) found.push({ relative: file.relative, modified: info.mtimeMs });
      }
    } catch (error) {
      return fileFailure(error, requested);
    }
    const walkNote = walker.truncated
      ? `\n[… looked at the first ${MAX_ENTRIES} entries only; give a narrower path …]`
      : '';
    if (found.length === 0)
      return {
        ok: true,
        output: `No files match ${input.pattern} in ${input.path ?? 'your working directory'}.${walkNote}`,
      };
    found.sort((a, b) => b.modified - a.modified || (a.relative < b.relative ? -1 : 1));
    const listing = new BoundedListing(MAX_FILES, MAX_OUTPUT_BYTES);
    for (const file of found) listing.add(file.relative);
    const rest = found.length - listing.count;
    const narrow = `${rest} more file${rest === 1 ? '' : 's'} match; narrow the pattern or path`;
    return { ok: true, output: listing.render('files', narrow) + walkNote };
  },
});
