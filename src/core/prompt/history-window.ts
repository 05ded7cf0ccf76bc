import { plural } from './text';
import { CHARS_PER_TOKEN } from './token-estimate';

export interface HistoryWindow {
  /** The newest lines that fit, oldest first. */
  kept: readonly string[];
  omitted: number;
  /** The line that says how many earlier messages were left out; null when none were. */
  notice: string | null;
}

export function omittedNotice(omitted: number): string {
  return `[${plural(omitted, 'earlier message was', 'earlier messages were')} left out to fit the context window.]`;
}

const tokensOf = (chars: number): number => Math.ceil(chars / CHARS_PER_TOKEN);

/**
 * Keeps the newest rendered messages whose lines (joined by newlines) fit `budgetTokens`;
 * the oldest are dropped whole, never cut, and never skipped to make room for an older one.
 * When any is dropped, the notice line is counted against the budget too.
 */
export function fitHistory(lines: readonly string[], budgetTokens: number): HistoryWindow {
  const total = lines.reduce((chars, line) => chars + line.length, 0) + Math.max(0, lines.length - 1);
  if (tokensOf(total) <= budgetTokens) return { kept: lines, omitted: 0, notice: null };

  // Budget for the longest notice this history can need, so the count never overflows it.
  const noticeChars = omittedNotice(lines.length).length;
  let chars = noticeChars;
  let start = lines.length;
  while (start > 0) {
    const line = lines[start - 1] ?? '';
    const next = chars + 1 + line.length;
    if (tokensOf(next) > budgetTokens) break;
    chars = next;
    start -= 1;
  }
  return { kept: lines.slice(start), omitted: start, notice: omittedNotice(start) };
}
