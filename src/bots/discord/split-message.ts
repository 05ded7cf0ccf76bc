/** P7: Discord's limit for a message's `content`. */
export const DISCORD_CONTENT_LIMIT = 2000;

const FENCE = /^\s*(```+|~~~+)(.*)$/;

/**
 * P7: splits a reply into parts of at most `limit` characters, in order, at line breaks where
 * it can (a line longer than the limit is cut). A code fence open at a cut is closed at the
 * end of the part and reopened, with its language, at the start of the next, so every part is
 * well-formed markdown on its own.
 */
export function splitMessage(text: string, limit = DISCORD_CONTENT_LIMIT): string[] {
  if (text.length <= limit) return [text];
  const parts: string[] = [];
  let current = '';
  let fence: { marker: string; opener: string } | null = null;
  /** `current` holds only the fence opener repeated after a cut: nothing of the reply yet. */
  let reopened = false;

  const closing = () => (fence === null ? '' : `\n${fence.marker}`);
  // Whitespace alone is no message for Discord: such a part is left out.
  const flush = () => {
    if (reopened) return;
    if (current.trim() !== '') parts.push(current + closing());
    current = fence === null ? '' : fence.opener;
    reopened = fence !== null;
  };
  const append = (line: string) => {
    current = current === '' ? line : `${current}\n${line}`;
    reopened = false;
  };

  for (const rawLine of text.split('\n')) {
    let line = rawLine;
    // A line that opens a fence needs room for the closer a cut after it would add.
    const opener = fence === null ? FENCE.exec(line) : null;
    const closerRoom = opener === null ? 0 : (opener[1] ?? '').length + 1;
    for (;;) {
      const separator = current === '' ? 0 : 1;
      const room = limit - current.length - separator - closing().length - closerRoom;
      if (line.length <= room) break;
      if (current !== '' && !reopened) {
        flush();
        continue;
      }
      // A line longer than a whole part: cut it.
      const cut = Math.max(1, room);
      append(line.slice(0, cut));
      line = line.slice(cut);
      flush();
    }
    append(line);
    const match = FENCE.exec(line);
    if (match !== null) {
      const marker = match[1] ?? '```';
      if (fence === null) fence = { marker, opener: line.trim() };
      else if (
        marker[0] === fence.marker[0] &&
        marker.length >= fence.marker.length &&
        match[2]?.trim() === ''
      )
        fence = null;
    }
  }
  if (current.trim() !== '' && !reopened) parts.push(current + closing());
  return parts;
}
