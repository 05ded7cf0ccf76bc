/** A16: how much one `read_file` call returns at most. */
export interface LineWindowLimits {
  maxLines: number;
  maxBytes: number;
  /** A longer line is cut and the cut is marked. */
  maxLineChars: number;
}

export const READ_LIMITS: LineWindowLimits = { maxLines: 2000, maxBytes: 256 * 1024, maxLineChars: 2000 };

/**
 * A16: a window of a text file, numbered like `cat -n` (line number, tab, line), from line
 * `offset` (1-based) for at most `limit` lines, bounded by lines and bytes. When the window
 * stops before the end of the file, the last line says how to read on, so a model never takes
 * a cut file for a whole one.
 */
export function numberedLines(
  text: string,
  offset = 1,
  limit: number | undefined = undefined,
  limits: LineWindowLimits = READ_LIMITS,
): string {
  const lines = text.split('\n');
  // A trailing newline ends the last line; it does not start another.
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  const total = text === '' ? 0 : lines.length;
  if (total === 0) return '(empty file)';
  if (offset > total) {
    return `The file has ${total} line${total === 1 ? '' : 's'}; offset ${offset} is past its end.`;
  }
  const wanted = Math.min(limit ?? limits.maxLines, limits.maxLines);
  const shown: string[] = [];
  let bytes = 0;
  let last = offset - 1;
  for (let n = offset; n <= total && shown.length < wanted; n++) {
    const line = lines[n - 1] ?? '';
    const clipped =
      line.length > limits.maxLineChars
        ? `${line.slice(0, limits.maxLineChars)} [… ${line.length - limits.maxLineChars} characters of this line cut …]`
        : line;
    const row = `${String(n).padStart(6)}\t${clipped}`;
    const size = Buffer.byteLength(row) + 1;
    if (shown.length > 0 && bytes + size > limits.maxBytes) break;
    shown.push(row);
    bytes += size;
    last = n;
  }
  if (last >= total) return shown.join('\n');
  const why = limit !== undefined && shown.length === limit ? '' : ' (the most one read returns)';
  return `${shown.join('\n')}\n[… lines ${offset}–${last} of ${total} shown${why}; read on with offset ${last + 1} …]`;
}
