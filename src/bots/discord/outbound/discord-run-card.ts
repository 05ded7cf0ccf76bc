import { type APIMessage, type REST, Routes, SnowflakeUtil } from 'discord.js';
import type { ThreadId } from '../../../core/ports/chat-platform';
import type { Logger } from '../../../core/ports/logger';
import { loggable } from '../discord-errors';
import { decodeDiscordThreadId } from '../discord-thread-id';
import { decodeCustomId } from './custom-id';

/** Discord's largest page of channel messages; a run's card is read back from a few at most. */
const PAGE = 100;
const MAX_PAGES = 5;
/** Discord's clocks and ours may differ a little: the search starts this much before the run. */
const SKEW_MS = 60_000;

/**
 * P9, T2: a run's status card read back from its thread (`GET /channels/{thread}/messages`
 * after the run's start, oldest first): the message whose Stop button (`stop:run:<id>`) names
 * the run. A card already marked done or failed has no Stop and is not looked for. A refusal
 * or failure is logged and gives null: the run's end is still told.
 */
export function discordRunCards(
  rest: REST,
  logger: Logger,
): (thread: ThreadId, runId: string, since: Date) => Promise<string | null> {
  return async (thread, runId, since) => {
    const parts = decodeDiscordThreadId(thread);
    if (parts === null) return null;
    let after = SnowflakeUtil.generate({ timestamp: Math.max(0, since.getTime() - SKEW_MS) }).toString();
    try {
      for (let page = 0; page < MAX_PAGES; page += 1) {
        const query = new URLSearchParams({ after, limit: String(PAGE) });
        const messages = (await rest.get(Routes.channelMessages(parts.thread), { query })) as APIMessage[];
        const found = messages.find((m) => stopsRun(m, runId));
        if (found !== undefined) return found.id;
        if (messages.length < PAGE) return null;
        // Discord answers `after` newest first: the next page starts after the newest seen.
        after = messages.reduce((max, m) => (BigInt(m.id) > BigInt(max) ? m.id : max), after);
      }
      return null;
    } catch (error) {
      logger.warn(
        { thread, runId, err: loggable(error) },
        "a dead run's status card could not be read back from its thread",
      );
      return null;
    }
  };
}

const stopsRun = (message: APIMessage, runId: string): boolean =>
  (message.components ?? []).some(
    (row) =>
      'components' in row &&
      row.components.some((c) => {
        if (!('custom_id' in c) || typeof c.custom_id !== 'string') return false;
        const button = decodeCustomId(c.custom_id);
        return button?.kind === 'stop' && button.runId === runId;
      }),
  );
