import type { Message } from 'discord.js';
import { ServiceUnavailableError } from '../../../core/errors';
import type { InboxChatEngine } from '../../../core/ports/chat-engine';
import type { Logger } from '../../../core/ports/logger';
import { loggable } from '../discord-errors';
import type { DiscordWebhooks } from '../outbound/discord-webhooks';
import { isConversational } from './discord-inbound';
import { discordInboxEntry } from './discord-inbox';

export interface DiscordMessagesDeps {
  /** T4: stores each message once; the inbox reads it back with the front end's `DiscordInboxDecoder`. */
  engine: InboxChatEngine;
  webhooks: DiscordWebhooks;
  logger: Logger;
  botUserId: () => string | null;
  applicationId: () => string | null;
  now: () => Date;
}

/**
 * Inbound messages, live or back-filled, taken in one at a time in arrival order (T4: each is
 * one inbox row, so the inbox's order is the arrival order): the bot's and its webhooks' own
 * posts never are (P10). Routing (bound channels, P1; members, P8; the back-fill cursor, P11)
 * follows from the inbox.
 */
export class DiscordMessages {
  private tail: Promise<unknown> = Promise.resolve();
  constructor(private readonly deps: DiscordMessagesDeps) {}

  /** Queues the message behind the ones before it; resolves once it was taken in. */
  handle(message: Message): Promise<void> {
    const next = this.tail.then(() => this.process(message));
    this.tail = next.catch(() => undefined);
    return next.catch((error: unknown) => {
      // T2: the database is away; the core's ingest tells the outage once, with a count.
      if (error instanceof ServiceUnavailableError) {
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
