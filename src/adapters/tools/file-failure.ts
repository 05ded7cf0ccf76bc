import type { ToolOutcome } from '../../core/ports/turn-tools';

/** A file tool's failure as a sentence the model can act on (never a thrown error). */
export function fileFailure(error: unknown, what: string): ToolOutcome {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return { ok: false, output: `No such file or directory: ${what}` };
  if (code === 'EISDIR') return { ok: false, output: `${what} is a directory; use list_files.` };
  if (code === 'ENOTDIR') return { ok: false, output: `${what} is not a directory.` };
  return { ok: false, output: `Could not access ${what}: ${code ?? String(error)}` };
}
