import { readFile, realpath } from 'node:fs/promises';
import { z } from 'zod';
import { looksBinary } from '../../core/tools/binary-content';
import { exactEdit } from '../../core/tools/exact-edit';
import { defineTool } from '../../core/tools/tool-definition';
import { ChangedMeanwhile, stampOf, writeFileAtomic } from './atomic-write';
import { confinePath } from './confined-path';
import { fileFailure } from './file-failure';

/**
 * `edit_file` (A16): a change by exact replacement, so changing one line costs that line and
 * not the whole file twice; refused with a sentence when the old text is empty, missing or
 * ambiguous. Confined like the other file tools (X1); written atomically, keeping the mode.
 */
export const editFileTool = defineTool({
  name: 'edit_file',
  description:
    'Edit a text file in your working directory by exact replacement: old_string (copied exactly from the file, without the line numbers read_file shows) becomes new_string. old_string must occur exactly once, unless replace_all is set. Read the file first.',
  input: z.object({
    path: z.string().min(1).describe('Path relative to your working directory.'),
    old_string: z.string().describe('The exact text to replace; it must occur once in the file.'),
    new_string: z.string().describe('The text to put in its place (different from old_string).'),
    replace_all: z.boolean().optional().describe('Replace every occurrence of old_string.'),
  }),
  access: 'write',
  modes: ['chat'],
  // G1: like write_file, an edit of the agent's own folder is not a guarded action.
  classify: () => [],
  run: async (input, scope) => {
    const target = await confinePath(scope.workingDir, input.path, scope.linkedRoots);
    if (!target.ok) return { ok: false, output: target.reason };
    try {
      // X1: the link itself was checked to stay inside; the edit replaces what it points to.
      const file = await realpath(target.absolute);
      const readAs = await stampOf(file);
      const content = await readFile(file);
      if (looksBinary(content)) {
        return {
          ok: false,
          output: `${input.path} is a binary file (it holds NUL bytes); edit_file edits text.`,
        };
      }
      const edit = exactEdit(content.toString('utf8'), input.old_string, input.new_string, input.replace_all);
      if (!edit.ok) return { ok: false, output: edit.reason };
      await writeFileAtomic(file, edit.content, readAs);
      // A7: the active repo follows the files the agent writes.
      await scope.noteWrite?.(input.path);
      const what = edit.replaced === 1 ? '1 occurrence' : `${edit.replaced} occurrences`;
      return { ok: true, output: `Edited ${input.path}: replaced ${what}.` };
    } catch (error) {
      if (error instanceof ChangedMeanwhile) {
        return {
          ok: false,
          output: `${input.path} changed while it was being edited (another writer); nothing was written. Read it again and retry.`,
        };
      }
      return fileFailure(error, input.path);
    }
  },
});
