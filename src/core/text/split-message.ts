/** What differs between platforms when a message is split (defaults: Slack's). */
export interface SplitOptions {
  /**
   * The line break a part ends at: kept (joining the parts gives the text back) or dropped
   * (Discord, which shows a message's trailing break as nothing anyway).
   */
  breakAtCut?: 'keep' | 'drop';
  /** Parts of whitespace only: kept, or left out (Discord refuses a message with no content). */
  blankParts?: 'keep' | 'drop';
  /**
   * A fence the text itself leaves open, once split: left open in the last part, or closed
   * there too (Discord: every part well-formed markdown on its own).
   */
  lastFence?: 'leave' | 'close';
}

/**
 * P7: a reply longer than a platform's limit is posted in parts, in order, each under `limit`
 * characters (Slack's, Discord's 2,000: the platform's own, with its `options`). Parts break at
 * paragraph or line ends where they can; a code fence open at a break is closed at the end of
 * the part and opened again (same marker and info string) at the start of the next, so every
 * part renders its code as code. Nothing is lost: joining the parts without the added fence
 * lines (and, with `breakAtCut: 'drop'`, with a line break between them) gives the text back.
 */
export function splitMessage(text: string, limit: number, options: SplitOptions = {}): string[] {
  if (limit < 40) throw new RangeError(`A message part limit of ${limit} is too small to split into.`);
  if (text.length <= limit) return [text];
  const parts: string[] = [];
  const push = (part: string) => {
    const shown = options.breakAtCut === 'drop' && part.endsWith('\n') ? part.slice(0, -1) : part;
    if (options.blankParts === 'drop' && shown.trim() === '') return;
    parts.push(shown);
  };
  let current = '';
  let fence: string | null = null;
  const reopening = (open: string | null) => carriedFence(open, limit);
  // Room kept for the closing fence line (`\n` + its marker) of a fence open at a break.
  const reserve = (open: string | null) => {
    const carried = reopening(open);
    return carried === null ? 0 : fenceMarker(carried).length + 1;
  };

  const flush = () => {
    if (current === '') return;
    const carried = reopening(fence);
    if (carried === null) {
      push(current);
      current = '';
      return;
    }
    push(`${current}${current.endsWith('\n') ? '' : '\n'}${fenceMarker(carried)}`);
    current = `${carried}\n`;
  };

  for (const line of linesOf(text)) {
    // A line that opens a fence needs the closing room too, from the part it lands in on.
    const after = nextFenceState(fence, line);
    let rest = line;
    while (rest !== '') {
      const room = limit - Math.max(reserve(fence), reserve(after)) - current.length;
      if (rest.length <= room) {
        current += rest;
        rest = '';
        break;
      }
      const carried = reopening(fence);
      const fresh = carried === null ? 0 : carried.length + 1;
      if (current.length > fresh) {
        flush();
        continue;
      }
      // One line longer than a whole part: cut it at a space if there is one, else hard.
      const cut = cutAt(rest, room);
      current += rest.slice(0, cut);
      rest = rest.slice(cut);
      flush();
    }
    fence = after;
  }
  const carried = reopening(fence);
  if (current !== '' && current !== (carried === null ? '' : `${carried}\n`)) {
    // The text's own last line break is the text's, not a cut's.
    const closed =
      options.lastFence === 'close' && carried !== null
        ? `${current}${current.endsWith('\n') ? '' : '\n'}${fenceMarker(carried)}`
        : current;
    if (options.blankParts !== 'drop' || closed.trim() !== '') parts.push(closed);
  }
  return parts;
}

/**
 * The line that opens a fence again in the next part: the opening line with its info string,
 * or only its marker when that is long; null (no re-fencing) for a fence so long that closing
 * and opening it would take more than half a part.
 */
function carriedFence(open: string | null, limit: number): string | null {
  if (open === null) return null;
  if (open.length + 1 <= limit / 4) return open;
  const marker = fenceMarker(open);
  return marker.length + 1 <= limit / 4 ? marker : null;
}

/** Lines with their `\n` kept, so joining gives the text back. */
function linesOf(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

function cutAt(line: string, room: number): number {
  const space = line.lastIndexOf(' ', room - 1);
  return space > room / 2 ? space + 1 : Math.max(1, room);
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/** The opening line (without its newline) of the fence open after `line`, or null. */
function nextFenceState(open: string | null, line: string): string | null {
  const bare = line.replace(/\n$/, '');
  const match = FENCE.exec(bare);
  if (match?.[1] === undefined) return open;
  if (open === null) return bare.trimStart();
  const marker = fenceMarker(open);
  const closes = match[1][0] === marker[0] && match[1].length >= marker.length && bare.trim() === match[1];
  return closes ? null : open;
}

function fenceMarker(openingLine: string): string {
  return /^(`{3,}|~{3,})/.exec(openingLine)?.[1] ?? '```';
}
