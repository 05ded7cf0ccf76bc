import type { webApi } from '@slack/bolt';
import type { ThreadId } from '../../../core/ports/chat-platform';
import type { Logger } from '../../../core/ports/logger';
import { decodeSlackThreadId } from '../slack-thread-id';
import { ACTIONS } from './slack-cards';

/** Slack's largest page of `conversations.replies`; a thread is read up to its first thousand replies. */
const PAGE = 200;
const MAX_PAGES = 5;

interface RepliedMessage {
  ts?: string;
  blocks?: { type?: string; elements?: { action_id?: string; value?: string }[] }[];
}

/**
 * P9, T2: a run's status card read back from its thread (`conversations.replies`,
 * `channels:history`, which back-fill already needs): the message whose Stop button
 * (`summon_stop`) carries the run's id. The whole thread is read, not only what followed the
 * run's start: a message's ts is Slack's clock, not ours. A card already marked done or failed has no Stop and is
 * not looked for. A refusal or failure is logged and gives null: the run's end is still told.
 */
export function slackRunCards(
  client: webApi.WebClient,
  logger: Logger,
): (thread: ThreadId, runId: string) => Promise<string | null> {
  return async (thread, runId) => {
    const parts = decodeSlackThreadId(thread);
    if (parts === null) return null;
    try {
      let cursor: string | undefined;
      for (let page = 0; page < MAX_PAGES; page += 1) {
        const answer = await client.conversations.replies({
          channel: parts.channel,
          ts: parts.threadTs,
          limit: PAGE,
          ...(cursor === undefined ? {} : { cursor }),
        });
        const found = (answer.messages as RepliedMessage[] | undefined)?.find((m) => stopsRun(m, runId));
        if (found?.ts !== undefined) return found.ts;
        cursor = answer.response_metadata?.next_cursor || undefined;
        if (cursor === undefined) return null;
      }
      return null;
    } catch (error) {
      logger.warn(
        { thread, runId, reason: error instanceof Error ? error.message : String(error) },
        "a dead run's status card could not be read back from its thread",
      );
      return null;
    }
  };
}

const stopsRun = (message: RepliedMessage, runId: string): boolean =>
  (message.blocks ?? []).some(
    (block) =>
      block.type === 'actions' &&
      (block.elements ?? []).some((e) => e.action_id === ACTIONS.stop && e.value === runId),
  );
