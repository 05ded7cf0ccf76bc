/**
 * Lines joined under a character limit: the first whole lines that fit, then one line saying
 * how many were left out, never a bare "…" (an approval card must not hide what it leaves out).
 * A single line longer than the limit is cut, with the count of the lines after it.
 */
export function clipLines(lines: readonly string[], limit: number): string {
  const whole = lines.join('\n');
  if (whole.length <= limit) return whole;
  const kept: string[] = [];
  let length = 0;
  for (const [index, line] of lines.entries()) {
    const marker = moreLines(lines.length - index);
    const next = length + (kept.length > 0 ? 1 : 0) + line.length;
    // Room for this line and, when lines follow it, the marker that counts them.
    const after = lines.length - index - 1;
    if (next + (after > 0 ? 1 + moreLines(after).length : 0) > limit) {
      if (kept.length === 0 && after === 0) return `${line.slice(0, Math.max(0, limit - 1))}…`;
      if (kept.length === 0) {
        const room = Math.max(0, limit - marker.length - 2);
        return `${line.slice(0, room)}…\n${moreLines(after)}`.slice(0, limit);
      }
      return `${kept.join('\n')}\n${marker}`;
    }
    kept.push(line);
    length = next;
  }
  return kept.join('\n');
}

const moreLines = (count: number) => `… and ${count} more line${count === 1 ? '' : 's'}`;
