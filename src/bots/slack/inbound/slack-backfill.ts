import type { webApi } from '@slack/bolt';
import type { ChannelCursor } from '../../../core/ports/channel-cursor-store';
import type { ChatDirectory } from '../../../core/ports/chat-directory';
import type { Logger } from '../../../core/ports/logger';
import { decodeSlackThreadId } from '../slack-thread-id';
import type { SlackMessageEvent } from './slack-inbound';

/** Slack's recommended page size for `conversations.history` / `conversations.replies`. */
const PAGE = 200;
/** Pages fetched per channel or thread at most; beyond, the rest of the gap is left (logged). */
const MAX_PAGES = 25;
/** Threads quiet for longer than this are not back-filled. */
const ACTIVE_THREAD_DAYS = 7;

/**
 * P11: a Slack `ts` ("1764700000.000123") as the cursor store's numeric id ("1764700000000123"):
 * the fraction always has six digits, so the number orders as the ts does.
 */
export function slackTsCursor(ts: string): string {
  const [seconds = '', fraction = ''] = ts.split('.');
  return `${seconds}${fraction.padEnd(6, '0')}`;
}

/** The Slack `ts` a cursor id stands for. */
export function cursorSlackTs(id: string): string {
  const digits = id.padStart(7, '0');
  return `${digits.slice(0, -6)}.${digits.slice(-6)}`;
}

/** The cursor of a thread: its thread id (`slack:{channel}:{thread_ts}`) under its channel. */
export const threadCursorId = (channel: string, threadTs: string): string => `slack:${channel}:${threadTs}`;

/** A message as `conversations.history` / `conversations.replies` return it. */
interface HistoryMessage {
  type?: string;
  subtype?: string;
  user?: string;
  bot_id?: string;
  app_id?: string;
  text?: string;
  ts?: string;
  thread_ts?: string;
  reply_count?: number;
}

interface Page {
  messages?: HistoryMessage[];
  has_more?: boolean;
  response_metadata?: { next_cursor?: string };
}

export interface SlackBackfillDeps {
  /** A client that waits out Slack's 429s (Retry-After) and retries, unlike the outbox's. */
  client: webApi.WebClient;
  /** P11: the cursors and which channels are bound (the core's directory). */
  directory: Pick<ChatDirectory, 'cursorsSince' | 'isBoundChannel'>;
  /** Hands one message to the same path as a live event (the inbox de-duplicates, P6). */
  deliver: (event: SlackMessageEvent) => Promise<void>;
  logger: Logger;
  now: () => Date;
  pageSize?: number;
  maxPages?: number;
}

/**
 * P11: after start and after every Socket Mode reconnect, fetches what each bound channel and
 * active thread received after the last message Summon processed (its cursor), oldest first,
 * and hands it to the same inbox as live events: P6's event id (`{channel}:{ts}`) drops what
 * was already taken in, so nothing said during the gap is lost or answered twice.
 */
export class SlackBackfill {
  private readonly pageSize: number;
  private readonly maxPages: number;

  constructor(private readonly deps: SlackBackfillDeps) {
    this.pageSize = deps.pageSize ?? PAGE;
    this.maxPages = deps.maxPages ?? MAX_PAGES;
  }

  async run(): Promise<{ conversations: number; messages: number }> {
    const since = new Date(this.deps.now().getTime() - ACTIVE_THREAD_DAYS * 86_400_000);
    const cursors = await this.deps.directory.cursorsSince('slack', since);
    const byChannel = new Map<string, ChannelCursor[]>();
    for (const cursor of cursors) {
      const channel = cursor.parentChannelId ?? cursor.channelId;
      byChannel.set(channel, [...(byChannel.get(channel) ?? []), cursor]);
    }
    let messages = 0;
    for (const [channel, ofChannel] of byChannel) {
      if (!(await this.deps.directory.isBoundChannel('slack', channel))) continue;
      // The channel and its threads as one list, oldest first: said in the gap, taken in in order.
      const found: HistoryMessage[] = [];
      for (const cursor of ofChannel) found.push(...(await this.fetch(channel, cursor)));
      for (const message of sortedAfter(found, '0')) messages += await this.take(channel, message);
    }
    this.deps.logger.info({ conversations: cursors.length, messages }, 'Slack back-fill done');
    return { conversations: cursors.length, messages };
  }

  /** What one channel or thread received after its cursor; nothing when it cannot be read. */
  private async fetch(channel: string, cursor: ChannelCursor): Promise<HistoryMessage[]> {
    const oldest = cursorSlackTs(cursor.lastMessageId);
    try {
      if (cursor.parentChannelId !== null) {
        const thread = decodeSlackThreadId(cursor.channelId);
        return thread === null ? [] : await this.thread(channel, thread.threadTs, oldest);
      }
      // `conversations.history` answers newest first; the caller sorts.
      const found = sortedAfter(await this.pages('conversations.history', { channel, oldest }), oldest);
      const replies: HistoryMessage[] = [];
      for (const message of found) {
        // A thread started in the gap: its replies are in the gap too.
        if ((message.reply_count ?? 0) > 0 && message.ts !== undefined)
          replies.push(...(await this.thread(channel, message.ts, oldest)));
      }
      return [...found, ...replies];
    } catch (error) {
      // One conversation that cannot be read (not_in_channel, channel_not_found) stops no other.
      this.deps.logger.warn(
        { slackError: slackErrorOf(error), channelId: cursor.channelId },
        'back-fill of a Slack conversation failed',
      );
      return [];
    }
  }

  private async thread(channel: string, threadTs: string, oldest: string): Promise<HistoryMessage[]> {
    // `conversations.replies` always starts with the thread's root, whatever `oldest` says.
    const found = await this.pages('conversations.replies', { channel, ts: threadTs, oldest });
    return sortedAfter(found, oldest).filter((message) => message.ts !== threadTs);
  }

  private async take(channel: string, message: HistoryMessage): Promise<number> {
    if (message.ts === undefined) return 0;
    const event: SlackMessageEvent = { type: message.type ?? 'message', channel, ts: message.ts };
    for (const field of ['subtype', 'user', 'bot_id', 'app_id', 'text', 'thread_ts'] as const) {
      const value = message[field];
      if (value !== undefined) event[field] = value;
    }
    await this.deps.deliver(event);
    return 1;
  }

  /** Every page of a call (`has_more`, `response_metadata.next_cursor`), up to the page cap. */
  private async pages(
    method: 'conversations.history' | 'conversations.replies',
    args: { channel: string; oldest: string; ts?: string },
  ): Promise<HistoryMessage[]> {
    const found: HistoryMessage[] = [];
    let next: string | undefined;
    for (let page = 1; ; page += 1) {
      const call = { ...args, limit: this.pageSize, ...(next === undefined ? {} : { cursor: next }) };
      const answer = (
        method === 'conversations.history'
          ? await this.deps.client.conversations.history(call)
          : await this.deps.client.conversations.replies({ ...call, ts: args.ts ?? '' })
      ) as Page;
      found.push(...(answer.messages ?? []));
      next = answer.response_metadata?.next_cursor;
      if (answer.has_more !== true || next === undefined || next === '') return found;
      if (page >= this.maxPages) {
        this.deps.logger.warn(
          { method, channel: args.channel, pages: page, messages: found.length },
          method === 'conversations.history'
            ? 'Slack back-fill stopped at its page cap: the oldest part of this gap is not fetched'
            : 'Slack back-fill stopped at its page cap: the rest of this thread waits for the next back-fill',
        );
        return found;
      }
    }
  }
}

const tsValue = (ts: string): bigint => BigInt(slackTsCursor(ts));

/** The messages after `oldest`, oldest first, each once. */
function sortedAfter(messages: HistoryMessage[], oldest: string): HistoryMessage[] {
  const after = tsValue(oldest);
  const byTs = new Map<string, HistoryMessage>();
  for (const message of messages) {
    if (message.ts !== undefined && tsValue(message.ts) > after) byTs.set(message.ts, message);
  }
  return [...byTs.values()].sort((a, b) => {
    const x = tsValue(a.ts ?? '0');
    const y = tsValue(b.ts ?? '0');
    return x < y ? -1 : x > y ? 1 : 0;
  });
}

function slackErrorOf(error: unknown): string {
  const code = (error as { data?: { error?: unknown } }).data?.error;
  return typeof code === 'string' ? code : error instanceof Error ? error.message : String(error);
}
