/**
 * M16: code is not text. Finds fenced code blocks and inline code spans so that mention
 * parsers (and anything else that reads chat text for meaning) can skip them.
 *
 * The rules follow CommonMark, which is what agents write:
 * - A fence is a line indented by at most 3 spaces that starts with 3+ backticks or 3+
 *   tildes, optionally followed by an info string (`` ```ts ``); a backtick fence's info
 *   string may not contain a backtick (that line is inline code instead). It closes at a line
 *   of at least as many of the same character, indented at most 3 spaces, with nothing but
 *   spaces or tabs after. An unclosed fence runs to the end of the text (M16: it voids
 *   everything after it).
 * - An inline span opens with a run of N backticks and closes at the next run of exactly N
 *   (so ``` ``a `b` c`` ``` is one span). It stays inside one paragraph: a blank line or a
 *   fence ends the search, and an opener without a closer is a literal backtick.
 *
 * Deliberately not handled, as chat text hardly uses them: indented (4-space) code blocks,
 * fences inside block quotes or list items, and backslash-escaped backticks (an escaped
 * backtick still opens a span here, which can only hide a mention, never invent one).
 */

export interface CodeRange {
  start: number;
  /** Exclusive. */
  end: number;
  kind: 'fence' | 'inline';
}

export interface CodeScanOptions {
  /**
   * Chat leniency for text typed by people (Slack and Discord render both as code blocks):
   * a fence may open after leading @-mentions on its line (`@alice ```` `), and a fence
   * closes at any line that ends with its marker (`last line```` `). Off for agent replies,
   * which are markdown.
   */
  chatFences?: boolean;
}

interface OpenFence {
  marker: '`' | '~';
  length: number;
  start: number;
}

interface Line {
  start: number;
  /** Exclusive, before the `\n`; a trailing `\r` is stripped from `text`. */
  end: number;
  text: string;
}

const FENCE_OPENER = /^ {0,3}(`{3,}|~{3,})(.*)$/;
// Leading @-tokens and their separators only; the captured marker follows them.
const MENTION_LED_FENCE_OPENER = /^[ \t]*(?:@[\p{L}\p{M}\p{N}_]+[ \t,:;]*)+(`{3,}|~{3,})(.*)$/u;
const BLANK_LINE = /^[ \t]*$/;

export function findCodeRanges(text: string, options: CodeScanOptions = {}): CodeRange[] {
  // M16: every fence and span starts with a backtick or a tilde; most chat text has neither,
  // and is not split into lines for nothing.
  if (!text.includes('`') && !text.includes('~')) return [];
  const ranges: CodeRange[] = [];
  let fence: OpenFence | null = null;
  let paragraph: { start: number; end: number } | null = null;

  const flushParagraph = (): void => {
    if (paragraph) ranges.push(...findInlineSpans(text, paragraph.start, paragraph.end));
    paragraph = null;
  };

  for (const line of splitLines(text)) {
    if (fence) {
      if (closesFence(line.text, fence, options)) {
        ranges.push({ start: fence.start, end: line.end, kind: 'fence' });
        fence = null;
      }
      continue;
    }
    const opened = openFence(line, options);
    if (opened) {
      flushParagraph();
      fence = opened;
    } else if (BLANK_LINE.test(line.text)) {
      flushParagraph();
    } else if (paragraph) {
      paragraph.end = line.end;
    } else {
      paragraph = { start: line.start, end: line.end };
    }
  }
  flushParagraph();
  if (fence) ranges.push({ start: fence.start, end: text.length, kind: 'fence' });
  return ranges.sort((a, b) => a.start - b.start);
}

/**
 * The text with every code character replaced by a space: same length, same offsets, and
 * line breaks kept so that line structure survives. Searching the mask instead of the text
 * is the simplest way to look only at prose.
 */
export function maskCode(text: string, options: CodeScanOptions = {}): string {
  const ranges = findCodeRanges(text, options);
  if (ranges.length === 0) return text;
  let masked = '';
  let position = 0;
  for (const range of ranges) {
    masked += text.slice(position, range.start);
    masked += text.slice(range.start, range.end).replace(/[^\n]/g, ' ');
    position = range.end;
  }
  return masked + text.slice(position);
}

function splitLines(text: string): Line[] {
  const lines: Line[] = [];
  let start = 0;
  while (start <= text.length) {
    const newline = text.indexOf('\n', start);
    const end = newline === -1 ? text.length : newline;
    lines.push({ start, end, text: text.slice(start, end).replace(/\r$/, '') });
    if (newline === -1) break;
    start = newline + 1;
  }
  return lines;
}

function openFence(line: Line, options: CodeScanOptions): OpenFence | null {
  const match =
    FENCE_OPENER.exec(line.text) ?? (options.chatFences ? MENTION_LED_FENCE_OPENER.exec(line.text) : null);
  const run = match?.[1];
  if (!match || run === undefined) return null;
  const marker = run[0] === '`' ? '`' : '~';
  // CommonMark: ```` ```a`b ```` is inline code, not a fence with info string "a`b".
  if (marker === '`' && (match[2] ?? '').includes('`')) return null;
  const runStart = line.text.length - (match[2] ?? '').length - run.length;
  return { marker, length: run.length, start: line.start + runStart };
}

function closesFence(lineText: string, fence: OpenFence, options: CodeScanOptions): boolean {
  const run = `${fence.marker === '`' ? '`' : '~'}{${fence.length},}`;
  const closer = options.chatFences ? new RegExp(`${run}[ \\t]*$`) : new RegExp(`^ {0,3}${run}[ \\t]*$`);
  return closer.test(lineText);
}

/** Inline spans of one paragraph, `text[start, end)`. Linear: each run is visited once. */
function findInlineSpans(text: string, start: number, end: number): CodeRange[] {
  const runs: { start: number; length: number }[] = [];
  for (const match of text.slice(start, end).matchAll(/`+/g)) {
    runs.push({ start: start + match.index, length: match[0].length });
  }
  // For each run length, the indices of the runs of that length, and how far we have looked.
  const byLength = new Map<number, { indices: number[]; next: number }>();
  runs.forEach((run, index) => {
    const entry = byLength.get(run.length);
    if (entry) entry.indices.push(index);
    else byLength.set(run.length, { indices: [index], next: 0 });
  });

  const spans: CodeRange[] = [];
  let index = 0;
  while (index < runs.length) {
    const opener = runs[index];
    const sameLength = opener ? byLength.get(opener.length) : undefined;
    if (!opener || !sameLength) break;
    while ((sameLength.indices[sameLength.next] ?? Number.POSITIVE_INFINITY) <= index) sameLength.next++;
    const closerIndex = sameLength.indices[sameLength.next];
    const closer = closerIndex === undefined ? undefined : runs[closerIndex];
    if (closerIndex === undefined || !closer) {
      index++; // no closer: the opener is literal backticks
      continue;
    }
    spans.push({ start: opener.start, end: closer.start + closer.length, kind: 'inline' });
    index = closerIndex + 1;
  }
  return spans;
}
