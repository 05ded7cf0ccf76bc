import type { Message } from 'discord.js';
import { ServiceUnavailableError } from '../../../core/errors';
import type { InboxChatEngine } from '../../../core/ports/chat-engine';
import type { Logger } from '../../../core/ports/logger';
import { loggable } from '../discord-errors';
import type { DiscordWebhooks } from '../outbound/discord-webhooks';
import { isConversational } from './discord-inbound';
import { discordInboxEntry } from './discord-inbox';
import { type DiscordHistory, DiscordOutageGaps } from './discord-outage-gaps';

export interface DiscordMessagesDeps {
  /** T4: stores each message once; the inbox reads it back with the front end's `DiscordInboxDecoder`. */
  engine: InboxChatEngine;
  webhooks: DiscordWebhooks;
  logger: Logger;
  botUserId: () => string | null;
  applicationId: () => string | null;
  now: () => Date;
  /** T2: where a message the database refused is read back from once it is back (no history: lost). */
  history?: DiscordHistory;
  /** T2: the waits between tries to take such messages in again (tests set them short). */
  gapRetry?: { firstMs: number; maxMs: number };
}

/**
 * Inbound messages, live or back-filled, taken in one at a time in arrival order (T4: each is
 * one inbox row, so the inbox's order is the arrival order): the bot's and its webhooks' own
 * posts never are (P10). Routing (bound channels, P1; members, P8; the back-fill cursor, P11)
 * follows from the inbox.
 */
export class DiscordMessages {
  private tail: Promise<unknown> = Promise.resolve();
  private readonly gaps: DiscordOutageGaps | null;

  constructor(private readonly deps: DiscordMessagesDeps) {
    const { history } = deps;
    this.gaps =
      history === undefined
        ? null
        : new DiscordOutageGaps({
            history,
            take: (message) => this.process(message),
            inOrder: (work) => {
              this.tail = this.tail.then(work).catch(() => undefined);
            },
            logger: deps.logger,
            ...(deps.gapRetry === undefined ? {} : { retry: deps.gapRetry }),
          });
  }

  /** Queues the message behind the ones before it; resolves once it was taken in. */
  handle(message: Message): Promise<void> {
    const next = this.tail.then(async () => {
      // T2: what an outage refused before it is taken in first, in the order it was said.
      if (this.gaps?.pending) await this.gaps.fill();
      await this.process(message);
    });
    this.tail = next.catch(() => undefined);
    return next.catch((error: unknown) => {
      // T2: the database is away; the core's ingest tells the outage once, with a count.
      if (error instanceof ServiceUnavailableError) {
        this.gaps?.refused(message);
        this.deps.logger.debug(
          { messageId: message.id },
          'a Discord message was not taken in: the database is away',
        );
        return;
      }
      this.deps.logger.error(
        { err: loggable(error), messageId: message.id },
        'a Discord message could not be handled',
      );
    });
  }

  /** Resolves once every message queued so far was taken in. */
  async settled(): Promise<void> {
    await this.tail;
  }

  /** Stops trying to take in what an outage refused (the front end is closing). */
  stop(): void {
    this.gaps?.stop();
  }

  /** P10: Summon's own posts and other bots' never start anything. */
  isIgnored(message: Message): boolean {
    if (message.author.id === this.deps.botUserId()) return true;
    if (message.webhookId !== null) {
      if (this.deps.webhooks.isOurs(message.webhookId)) return true;
      if (message.applicationId !== null && message.applicationId === this.deps.applicationId()) return true;
    }
    // Other bots and webhooks: not members (P8), and answering them risks a loop between bots.
    return message.author.bot || message.webhookId !== null || !isConversational(message);
  }

  private async process(message: Message): Promise<void> {
    if (this.isIgnored(message)) return;
    const entry = discordInboxEntry(message, this.deps.now());
    if (entry === null) return;
    const taken = await this.deps.engine.ingest(entry);
    // P6: a replay or a back-fill of a message handled before is not stored again.
    if (!taken.stored)
      this.deps.logger.debug({ messageId: message.id, outcome: 'duplicate' }, 'Discord message handled');
  }
}
