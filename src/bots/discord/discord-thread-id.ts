import type { ThreadId } from '../../core/ports/chat-platform';

/**
 * The parts of a Discord thread id. A conversation is a thread started from the message that
 * summoned it, so the thread's id is that message's id (Discord gives a thread started from a
 * message the message's id).
 */
export interface DiscordThreadParts {
  guild: string;
  /** The bound (parent) channel. */
  channel: string;
  /** The thread channel, equal to the id of the message it was started from. */
  thread: string;
}

const SNOWFLAKE = /^[0-9]{1,20}$/;

/** `discord:{guild}:{channel}:{thread}`: the opaque id the core keeps. */
export function encodeDiscordThreadId(parts: DiscordThreadParts): ThreadId {
  const { guild, channel, thread } = parts;
  for (const [name, value] of Object.entries({ guild, channel, thread })) {
    if (!SNOWFLAKE.test(value)) throw new RangeError(`A Discord ${name} id is a snowflake, not "${value}".`);
  }
  return `discord:${guild}:${channel}:${thread}`;
}

/** The parts of a Discord thread id, or null when the id is not one. */
export function decodeDiscordThreadId(id: ThreadId): DiscordThreadParts | null {
  const match = /^discord:([0-9]{1,20}):([0-9]{1,20}):([0-9]{1,20})$/.exec(id);
  const [, guild, channel, thread] = match ?? [];
  if (guild === undefined || channel === undefined || thread === undefined) return null;
  return { guild, channel, thread };
}

/**
 * P1: a direct message with the bot is one conversation in the DM channel itself (Discord has
 * no threads there): its id names the channel twice, `discord:{guild}:{dm}:{dm}`, the guild
 * being the one of the workspace the person belongs to. A guild thread's id never equals its
 * parent channel's, so the two never mix.
 */
export const isDirectConversation = (parts: DiscordThreadParts): boolean => parts.channel === parts.thread;

/** Snowflakes compare as numbers: `a` came after `b`. */
export const isNewer = (a: string, b: string): boolean => BigInt(a) > BigInt(b);
