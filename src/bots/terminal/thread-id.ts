import type { ThreadId } from '../../core/ports/chat-platform';

/** The parts of a terminal thread id: the channel (the space's) and the thread's display number. */
export interface TerminalThreadParts {
  channel: string;
  /** 1, 2, 3… in the order the threads appeared on the screen. */
  number: number;
}

const PREFIX = 'terminal';
const CHANNEL = /^[a-z0-9][a-z0-9_-]*$/;

/** `terminal:{channel}:{n}`: the opaque id the core keeps (STYLE: one format per platform). */
export function encodeTerminalThreadId(parts: TerminalThreadParts): ThreadId {
  if (!CHANNEL.test(parts.channel)) throw new RangeError(`Not a terminal channel: "${parts.channel}".`);
  if (!Number.isSafeInteger(parts.number) || parts.number < 1) {
    throw new RangeError(`A terminal thread number is a positive integer, not ${parts.number}.`);
  }
  return `${PREFIX}:${parts.channel}:${parts.number}`;
}

/** The parts of a terminal thread id, or null when the id is not one (another platform's, malformed). */
export function decodeTerminalThreadId(id: ThreadId): TerminalThreadParts | null {
  const match = /^terminal:([a-z0-9][a-z0-9_-]*):([1-9][0-9]*)$/.exec(id);
  const channel = match?.[1];
  const digits = match?.[2];
  if (channel === undefined || digits === undefined) return null;
  const number = Number(digits);
  return Number.isSafeInteger(number) ? { channel, number } : null;
}
