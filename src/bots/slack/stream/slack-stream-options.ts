import type { ReplyStreamOpening } from '../../../core/ports/chat-platform';
import type { Logger } from '../../../core/ports/logger';
import type { SlackMemberRef } from '../outbound/slack-mrkdwn';
import type { SlackCall } from '../outbound/slack-sender';
import type { SlackThreadParts } from '../slack-thread-id';

export interface SlackStreamSettings {
  /** P14: a streamed message is closed and the reply goes on in a new one after this long (Slack ends streams after about 5 minutes). */
  rolloverAfterMs: number;
  /** Appends are coalesced to one per interval (`chat.appendStream` is Tier 4, per workspace). */
  intervalMs: number;
  /**
   * P14 (decision): the stream starts this long after its first words, and only once more
   * words or a tool call follow them, so a reply complete within the moment, or that came in
   * one piece, is posted whole (one call) instead of a stream started and stopped around one
   * chunk. 0: it starts with its first words.
   */
  startAfterMs: number;
}

export const DEFAULT_SLACK_STREAM: SlackStreamSettings = {
  rolloverAfterMs: 240_000,
  intervalMs: 1_000,
  startAfterMs: 250,
};

export interface SlackReplyStreamOptions {
  parts: SlackThreadParts;
  opening: ReplyStreamOpening;
  /** A2: the Slack team the thread's channel belongs to: a channel stream's `recipient_team_id`. */
  teamId: () => Promise<string>;
  /** One Web API call through the outbox, in the thread's order (P7). */
  call: (call: SlackCall, args: Record<string, unknown>) => Promise<string | null>;
  /** M11: the members `text` may mention (its `@nickname`s), for real mentions. */
  members: (text: string) => Promise<readonly SlackMemberRef[]>;
  /** The most a streamed message holds before the reply goes on in the next (P7). */
  partLimit: number;
  settings: SlackStreamSettings;
  logger: Logger;
  now?: () => number;
}

/** One streamed Slack message of a reply. */
export interface StreamSegment {
  ts: string;
  startedAt: number;
  /** The reply's text this message shows (before mrkdwn), to know the fence open at its end. */
  text: string;
}
