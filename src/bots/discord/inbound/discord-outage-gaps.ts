import type { Message } from 'discord.js';
import { ServiceUnavailableError } from '../../../core/errors';
import type { Logger } from '../../../core/ports/logger';
import { loggable } from '../discord-errors';

/** A channel's or thread's messages after one id, oldest first (`messagesAfter`). */
export type DiscordHistory = (channelId: string, after: string) => AsyncIterable<Message>;

/** How long after a refusal the first try to take the gap in again waits; doubled up to the cap. */
export const GAP_RETRY_MS = { firstMs: 2_000, maxMs: 60_000 };

/**
 * T2, P11: a Discord message the database could not take in is not lost. A gateway event cannot
 * be refused back to Discord the way a Slack event over HTTP can (Slack sends it again), so the
 * channel it was said in is remembered from just before it, and once the database takes messages
 * again what the channel received since is read back from its history and taken in, oldest
 * first; the inbox's de-duplication (P6) drops what was taken in already.
 */
export class DiscordOutageGaps {
  /** Channel or thread id → the id of the last message known taken in before the gap. */
  private readonly gaps = new Map<string, string>();
  private retry: NodeJS.Timeout | null = null;
  private retryMs: number;

  constructor(
    private readonly deps: {
      history: DiscordHistory;
      /** Takes one message in (the same path as a live one); throws while the database is away. */
      take: (message: Message) => Promise<void>;
      /** Runs `work` in the messages' arrival order (behind what is being taken in now). */
      inOrder: (work: () => Promise<void>) => void;
      logger: Logger;
      retry?: { firstMs: number; maxMs: number };
    },
  ) {
    this.retryMs = this.retrySettings.firstMs;
  }

  /** A message was refused because the database is away: its channel has a gap from before it. */
  refused(message: Message): void {
    const before = (BigInt(message.id) - 1n).toString();
    const known = this.gaps.get(message.channelId);
    if (known === undefined || BigInt(before) < BigInt(known)) this.gaps.set(message.channelId, before);
    this.scheduleRetry();
  }

  /**
   * Takes in what each gap holds, channel by channel; a gap the database still refuses stays
   * (from the last message taken in) and is tried again later. Never throws.
   */
  async fill(): Promise<void> {
    for (const [channelId, after] of [...this.gaps]) {
      let cursor = after;
      let taken = 0;
      try {
        for await (const message of this.deps.history(channelId, after)) {
          await this.deps.take(message);
          cursor = message.id;
          taken += 1;
        }
        this.gaps.delete(channelId);
        this.retryMs = this.retrySettings.firstMs;
        this.deps.logger.info(
          { channelId, messages: taken },
          'Discord messages said while the database was away were taken in from the channel history',
        );
      } catch (error) {
        if (error instanceof ServiceUnavailableError) {
          this.gaps.set(channelId, cursor);
          this.scheduleRetry();
          return;
        }
        // A channel that cannot be read any more (deleted, permissions): nothing left to take in.
        this.gaps.delete(channelId);
        this.deps.logger.warn(
          { err: loggable(error), channelId },
          'messages said in a Discord channel while the database was away could not be read back',
        );
      }
    }
  }

  get pending(): boolean {
    return this.gaps.size > 0;
  }

  /** No more tries (the front end is closing). */
  stop(): void {
    if (this.retry !== null) clearTimeout(this.retry);
    this.retry = null;
  }

  private get retrySettings() {
    return this.deps.retry ?? GAP_RETRY_MS;
  }

  private scheduleRetry(): void {
    if (this.retry !== null) return;
    const wait = this.retryMs;
    this.retryMs = Math.min(this.retrySettings.maxMs, this.retryMs * 2);
    this.retry = setTimeout(() => {
      this.retry = null;
      this.deps.inOrder(() => this.fill());
    }, wait);
    this.retry.unref();
  }
}
