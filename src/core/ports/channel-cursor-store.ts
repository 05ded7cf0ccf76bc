import type { Platform } from '../model/platform';

/** P11: where a front end got to in a channel or thread. */
export interface ChannelCursor {
  channelId: string;
  /** The bound channel a thread belongs to; null for the channel itself. */
  parentChannelId: string | null;
  lastMessageId: string;
  updatedAt: Date;
}

/**
 * P11: the newest message processed per channel and thread, so a reconnecting front end can
 * fetch what it missed. Not owned by a workspace: use it in `Store.transaction`.
 */
export interface ChannelCursorRepository {
  /**
   * Moves the channel's cursor to `messageId` if that is newer (ids compare as numbers, as
   * Discord snowflakes do); never moves it back.
   */
  advance(
    platform: Platform,
    cursor: { channelId: string; parentChannelId: string | null; messageId: string },
  ): Promise<void>;
  /** The platform's cursors touched since `since`, oldest first. */
  listSince(platform: Platform, since: Date): Promise<ChannelCursor[]>;
}
