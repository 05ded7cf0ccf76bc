import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import picomatch from 'picomatch';
import { z } from 'zod';
import { BINARY_SNIFF_BYTES } from '../../core/tools/binary-content';
import { BoundedListing } from '../../core/tools/bounded-listing';
import { oneLine } from '../../core/tools/call-summary';
import { ALL_MODES, defineTool } from '../../core/tools/tool-definition';
import { confinePath } from './confined-path';
import { fileFailure } from './file-failure';
import { matchInWorker } from './match-worker';
import { toPosix, type VisibleFile, VisibleFiles } from './visible-files';

const MAX_MATCHES = 200;
const MAX_OUTPUT_BYTES = 24_000;
const MAX_LINE_CHARS = 300;
const MAX_ENTRIES = 50_000;
/** Larger files are skipped: a search is for source, not for data dumps. */
const MAX_FILE_BYTES = 4 * 1024 * 1024;
/** A16: a search that takes longer is ended (a pattern that backtracks without end). */
const DEFAULT_TIMEOUT_MS = 20_000;

/**
 * `search` (A16): a regular expression over the contents of the files under a folder, as
 * `path:line: text`, without what `.gitignore` ignores, `.git/` or binary files; bounded by
 * matches and bytes. Read-only, so every mode has it (A9); confined like the file tools (X1).
 * The matching runs in a worker, ended after `timeoutMs` (match-worker.ts).
 */
export function createSearchTool(options: { timeoutMs?: number } = {}) {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  return defineTool({
    name: 'search',
    description: `Search file contents in your working directory with a regular expression (JavaScript syntax). Files ignored by .gitignore, .git/ and binary files are skipped. Prints "path:line: text" for each matching line, at most ${MAX_MATCHES} lines.`,
    input: z.object({
      pattern: z.string().min(1).describe('The regular expression, e.g. "function\\s+load" or "TODO|FIXME".'),
      path: z
        .string()
        .optional()
        .describe('File or folder to search, relative to your working directory; "." when absent.'),
      glob: z
        .string()
        .optional()
        .describe('Only files whose path matches this glob, e.g. "*.ts" (any folder) or "src/**/*.test.ts".'),
      ignore_case: z.boolean().optional().describe('Match letters of either case.'),
    }),
    access: 'read',
    modes: ALL_MODES,
    classify: () => [],
    run: async (input, scope, signal) => {
      const flags = input.ignore_case === true ? 'i' : '';
      try {
        new RegExp(input.pattern, flags);
      } catch (error) {
        return { ok: false, output: `Not a valid regular expression: ${(error as Error).message}` };
      }
      const requested = input.path ?? '.';
      const target = await confinePath(scope.workingDir, requested, scope.linkedRoots);
      if (!target.ok) return { ok: false, output: target.reason };
      const root = await realpath(scope.workingDir);
      const walker = new VisibleFiles(await VisibleFiles.roots(root, scope.linkedRoots), MAX_ENTRIES);
      const start = toPosix(path.relative(root, target.absolute));
      const files: VisibleFile[] = [];
      try {
        if ((await stat(target.absolute)).isDirectory()) {
          const wanted = globFilter(input.glob, start);
          for await (const file of walker.walk(root, start)) {
            if (signal.aborted) return { ok: false, output: 'Search stopped: the turn was stopped.' };
            if (wanted === undefined || wanted(file.relative)) files.push(file);
          }
        } else files.push({ relative: start, absolute: target.absolute });
      } catch (error) {
        return fileFailure(error, requested);
      }
      const job = {
        files,
        pattern: input.pattern,
        flags,
        // One more than is shown, so the listing knows it was cut.
        maxMatches: MAX_MATCHES + 1,
        maxFileBytes: MAX_FILE_BYTES,
        sniffBytes: BINARY_SNIFF_BYTES,
        maxLineChars: MAX_LINE_CHARS * 4,
      };
      const result = await matchInWorker(job, timeoutMs, signal);
      if (!result.ok) return { ok: false, output: result.reason };
      const listing = new BoundedListing(MAX_MATCHES, MAX_OUTPUT_BYTES);
      for (const match of result.matches) {
        if (!listing.add(`${match.relative}:${match.line}: ${oneLine(match.text, MAX_LINE_CHARS)}`)) break;
      }
      const walkNote = walker.truncated
        ? `\n[… the search looked at the first ${MAX_ENTRIES} entries only; give a narrower path …]`
        : '';
      if (listing.count === 0) {
        return {
          ok: true,
          output: `No matches for ${input.pattern} in ${input.path ?? 'your working directory'}.${walkNote}`,
        };
      }
      return { ok: true, output: listing.render('matches', 'narrow the pattern, path or glob') + walkNote };
    },
  });
}

export const searchTool = createSearchTool();

/**
 * Matches paths relative to the folder searched; a glob without a slash matches a file's
 * name in any folder (as `rg --glob` does).
 */
function globFilter(glob: string | undefined, start: string): ((relative: string) => boolean) | undefined {
  if (glob === undefined || glob.trim() === '') return undefined;
  const match = picomatch(glob.replace(/^\.\//, ''), { dot: true, basename: !glob.includes('/') });
  return (relative) => match(start === '' ? relative : path.posix.relative(start, relative));
}
