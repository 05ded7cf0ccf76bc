import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { looksBinary } from '../../core/tools/binary-content';
import { numberedLines, READ_LIMITS } from '../../core/tools/numbered-lines';
import { ALL_MODES, defineTool } from '../../core/tools/tool-definition';
import { confinePath } from './confined-path';
import { fileFailure } from './file-failure';

const MAX_LIST_ENTRIES = 500;
const SKIPPED_DIRS = new Set(['.git', 'node_modules']);
/** A16: larger files are read in windows through other tools; the whole file is never loaded past this. */
const MAX_READ_FILE_BYTES = 16 * 1024 * 1024;

export const readFileTool = defineTool({
  name: 'read_file',
  description: `Read a text file in your working directory, with line numbers (number, tab, line). Without offset and limit it reads from the start, at most ${READ_LIMITS.maxLines} lines; the output says how to read on when it stops early.`,
  input: z.object({
    path: z.string().min(1).describe('Path relative to your working directory.'),
    offset: z.number().int().min(1).optional().describe('The first line to read (1-based); 1 when absent.'),
    limit: z
      .number()
      .int()
      .min(1)
      .optional()
      .describe(`How many lines to read (at most ${READ_LIMITS.maxLines}).`),
  }),
  access: 'read',
  modes: ALL_MODES,
  classify: () => [],
  run: async (input, scope) => {
    const target = await confinePath(scope.workingDir, input.path, scope.linkedRoots);
    if (!target.ok) return { ok: false, output: target.reason };
    try {
      const { size } = await stat(target.absolute);
      if (size > MAX_READ_FILE_BYTES) {
        return {
          ok: false,
          output: `${input.path} is ${size} bytes, more than read_file opens (${MAX_READ_FILE_BYTES}); use search to find the lines you need.`,
        };
      }
      const content = await readFile(target.absolute);
      // A16: numbered lines of a binary file would only spend the model's context.
      if (looksBinary(content)) {
        return {
          ok: false,
          output: `${input.path} is a binary file (it holds NUL bytes); read_file reads text.`,
        };
      }
      // A16: a line window, numbered, bounded (numbered-lines.ts).
      return { ok: true, output: numberedLines(content.toString('utf8'), input.offset, input.limit) };
    } catch (error) {
      return fileFailure(error, input.path);
    }
  },
});

export const writeFileTool = defineTool({
  name: 'write_file',
  description: 'Create or overwrite a text file in your working directory (parent folders are created).',
  input: z.object({
    path: z.string().min(1).describe('Path relative to your working directory.'),
    content: z.string().describe('The whole new content of the file.'),
  }),
  access: 'write',
  modes: ['chat'],
  classify: () => [],
  run: async (input, scope) => {
    const target = await confinePath(scope.workingDir, input.path, scope.linkedRoots);
    if (!target.ok) return { ok: false, output: target.reason };
    try {
      await mkdir(path.dirname(target.absolute), { recursive: true });
      await writeFile(target.absolute, input.content, 'utf8');
      // A7: the active repo follows the files the agent writes.
      await scope.noteWrite?.(input.path);
      return { ok: true, output: `Wrote ${Buffer.byteLength(input.content)} bytes to ${input.path}.` };
    } catch (error) {
      return fileFailure(error, input.path);
    }
  },
});

export const listFilesTool = defineTool({
  name: 'list_files',
  description:
    'List files under a folder of your working directory, recursively (folders end with /; .git and node_modules are skipped).',
  input: z.object({
    path: z.string().optional().describe('Folder relative to your working directory; "." when absent.'),
  }),
  access: 'read',
  modes: ALL_MODES,
  classify: () => [],
  run: async (input, scope) => {
    const requested = input.path ?? '.';
    const target = await confinePath(scope.workingDir, requested, scope.linkedRoots);
    if (!target.ok) return { ok: false, output: target.reason };
    try {
      if (!(await stat(target.absolute)).isDirectory())
        return { ok: false, output: `${requested} is not a folder.` };
      const entries: string[] = [];
      const walk = async (dir: string, prefix: string): Promise<void> => {
        const children = (await readdir(dir, { withFileTypes: true })).sort((a, b) =>
          a.name.localeCompare(b.name),
        );
        for (const child of children) {
          if (entries.length >= MAX_LIST_ENTRIES) return;
          const shown = `${prefix}${child.name}`;
          if (child.isDirectory()) {
            entries.push(`${shown}/`);
            if (!SKIPPED_DIRS.has(child.name)) await walk(path.join(dir, child.name), `${shown}/`);
          } else entries.push(child.isSymbolicLink() ? `${shown} (link)` : shown);
        }
      };
      await walk(target.absolute, '');
      const more =
        entries.length >= MAX_LIST_ENTRIES ? `\n[… listing stopped at ${MAX_LIST_ENTRIES} entries …]` : '';
      return { ok: true, output: entries.length === 0 ? '(empty folder)' : entries.join('\n') + more };
    } catch (error) {
      return fileFailure(error, requested);
    }
  },
});
