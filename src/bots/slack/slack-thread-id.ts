import type { ThreadId } from '../../core/ports/chat-platform';

/** The parts of a Slack thread id: the channel and the `ts` of the thread's first message. */
export interface SlackThreadParts {
  channel: string;
  threadTs: string;
}

const CHANNEL = /^[CDG][A-Z0-9]{2,}$/;
const TS = /^[0-9]{1,12}\.[0-9]{1,6}$/;

/** `slack:{channel}:{thread_ts}`: the opaque id the core keeps (P2: every conversation is a thread). */
export function encodeSlackThreadId(parts: SlackThreadParts): ThreadId {
  if (!CHANNEL.test(parts.channel)) throw new RangeError(`Not a Slack channel id: "${parts.channel}".`);
  if (!TS.test(parts.threadTs)) throw new RangeError(`Not a Slack message ts: "${parts.threadTs}".`);
  return `slack:${parts.channel}:${parts.threadTs}`;
}

/** The parts of a Slack thread id, or null when the id is not one (another platform's, malformed). */
export function decodeSlackThreadId(id: ThreadId): SlackThreadParts | null {
  const match = /^slack:([CDG][A-Z0-9]{2,}):([0-9]{1,12}\.[0-9]{1,6})$/.exec(id);
  const channel = match?.[1];
  const threadTs = match?.[2];
  return channel === undefined || threadTs === undefined ? null : { channel, threadTs };
}
