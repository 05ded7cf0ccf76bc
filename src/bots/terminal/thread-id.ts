import type { ThreadId } from '../../core/ports/chat-platform';

/** The parts of a terminal thread id: the channel (the space's) and the thread's display number. */
export interface TerminalThreadParts {
  channel: string;
  /** 1, 2, 3… in the order the threads appeared on the screen. */
  number: number;
  /**
   * The chat session that showed the thread. Each `summon chat` numbers its threads from 1,
   * and the core keeps every conversation, so a session keeps its ids apart from earlier ones.
   */
  session?: string;
}

const PREFIX = 'terminal';
const CHANNEL = /^[a-z0-9][a-z0-9_-]*$/;
const SESSION = /^[a-z0-9]+$/;

/** `terminal:{channel}:{n}` or `terminal:{channel}:{session}.{n}`: the opaque id the core keeps. */
export function encodeTerminalThreadId(parts: TerminalThreadParts): ThreadId {
  if (!CHANNEL.test(parts.channel)) throw new RangeError(`Not a terminal channel: "${parts.channel}".`);
  if (!Number.isSafeInteger(parts.number) || parts.number < 1) {
    throw new RangeError(`A terminal thread number is a positive integer, not ${parts.number}.`);
  }
  if (parts.session !== undefined && !SESSION.test(parts.session)) {
    throw new RangeError(`A terminal session is lower-case letters and digits, not "${parts.session}".`);
  }
  const thread = parts.session === undefined ? `${parts.number}` : `${parts.session}.${parts.number}`;
  return `${PREFIX}:${parts.channel}:${thread}`;
}

/** The parts of a terminal thread id, or null when the id is not one (another platform's, malformed). */
export function decodeTerminalThreadId(id: ThreadId): TerminalThreadParts | null {
  const match = /^terminal:([a-z0-9][a-z0-9_-]*):(?:([a-z0-9]+)\.)?([1-9][0-9]*)$/.exec(id);
  const channel = match?.[1];
  const session = match?.[2];
  const digits = match?.[3];
  if (channel === undefined || digits === undefined) return null;
  const number = Number(digits);
  if (!Number.isSafeInteger(number)) return null;
  return session === undefined ? { channel, number } : { channel, number, session };
}
