import type { Writable } from 'node:stream';
import { formatNoteTime } from '../../core/notes';
import { INDENT, renderMessage } from './terminal-cards';
import type { TerminalThread, ThreadEntry } from './terminal-threads';

/**
 * The one screen every thread prints to, as whole lines: no cursor movement, so output stays
 * readable in a log, a pipe and a test.
 */
export class TerminalScreen {
  constructor(private readonly output: Writable) {}

  print(lines: readonly string[]): void {
    if (lines.length === 0) return;
    this.output.write(`${lines.join('\n')}\n`);
  }

  /** A remark of the terminal itself (not part of any thread). */
  info(text: string): void {
    this.print([`  · ${text}`]);
  }

  /** Something went wrong or was refused: one line, never a stack. */
  problem(text: string): void {
    this.print([`  ! ${text}`]);
  }
}

/** `[2]`: the thread a line belongs to; every thread prints on the same screen. */
export function threadLabel(number: number): string {
  return `[${number}]`;
}

export function renderEntry(thread: number, entry: ThreadEntry): string[] {
  const where = threadLabel(thread);
  if (entry.kind === 'posted') return renderMessage(where, entry.message, entry.cardNumber);
  const [first = '', ...rest] = entry.text.split('\n');
  return [
    `${where} ${entry.sender}: ${first}`,
    ...rest.map((line) => (line.trim() ? `${INDENT}${line}` : '')),
  ];
}

/** `/thread n`: the thread again, from its first message. */
export function renderThread(thread: TerminalThread): string[] {
  return [
    `── ${threadLabel(thread.number)} ${thread.title} ──`,
    ...thread.entries.flatMap((entry) => renderEntry(thread.number, entry)),
  ];
}

export interface ThreadListOptions {
  current: number | null;
  /** `HH:MM`, UTC unless a time zone is given (as note rows show time, N5). */
  timeZone?: string;
}

/** `/threads`: number, title, how many messages, last activity; `*` marks the current one. */
export function renderThreadList(threads: readonly TerminalThread[], options: ThreadListOptions): string[] {
  if (threads.length === 0) return ['  · no threads yet: type a message to start one'];
  const timeOptions = options.timeZone === undefined ? {} : { timeZone: options.timeZone };
  return threads.map((thread) => {
    const mark = thread.number === options.current ? '*' : ' ';
    const count = thread.entries.length;
    const messages = `${count} message${count === 1 ? '' : 's'}`;
    const at = formatNoteTime(thread.lastActivity, timeOptions);
    return `${mark} ${threadLabel(thread.number)} ${thread.title || '(untitled)'} · ${messages} · ${at}`;
  });
}

/** A line only the terminal's person sees (M5's hint, refusals); marked, since it is not in the thread. */
export function renderPrivate(thread: number, recipient: string, text: string): string[] {
  const [first = '', ...rest] = text.split('\n');
  return [`  (only ${recipient}) ${threadLabel(thread)} ${first}`, ...rest.map((line) => `${INDENT}${line}`)];
}
