import type { Message } from 'discord.js';
import type { ChatEngine } from '../../core/ports/chat-engine';
import type { Logger } from '../../core/ports/logger';
import type { Store } from '../../core/ports/store';
import { ensureDirectSpace } from '../../core/spaces/direct-space';
import type { DiscordDirectory } from './discord-directory';
import { loggable } from './discord-errors';
import { isConversational, placeOf, toInbound } from './discord-inbound';
import type { DiscordPlatform } from './discord-platform';
import { encodeDiscordThreadId } from './discord-thread-id';
import type { DiscordWebhooks } from './discord-webhooks';

export interface DiscordMessagesDeps {
  engine: ChatEngine;
  platform: DiscordPlatform;
  directory: DiscordDirectory;
  webhooks: DiscordWebhooks;
  store: Store;
  logger: Logger;
  botUserId: () => string | null;
  applicationId: () => string | null;
  /** The servers the bot is in: where a direct message's sender may be a member. */
  guildIds: () => string[];
}

/**
 * Inbound guild messages, live or back-filled, one at a time in arrival order: bound channels
 * and their threads reach the core (P1), the bot's and its webhooks' own posts never do (P10),
 * and each message handed over moves its channel's back-fill cursor (P11).
 */
/** The answer to a direct message from someone who is a member of no workspace of the bot's servers. */
export const DIRECT_MESSAGE_ANSWER =
  'Summon answers members of a linked workspace here. In your server, ask an admin for a one-time code and send `/summon link-account <code>`; or mention an agent in a linked channel (`@engineer fix the login bug`) or use `/ask`.';

export class DiscordMessages {
  private tail: Promise<unknown> = Promise.resolve();
  private readonly answeredDirectChannels = new Set<string>();

  constructor(private readonly deps: DiscordMessagesDeps) {}

  /** Queues the message behind the ones before it; resolves once it was handled. */
  handle(message: Message): Promise<void> {
    const next = this.tail.then(() => this.process(message));
    this.tail = next.catch(() => undefined);
    return next.catch((error: unknown) => {
      this.deps.logger.error(
        { err: loggable(error), messageId: message.id },
        'a Discord message could not be handled',
      );
    });
  }

  /** Resolves once every message queued so far was handled. */
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

  /**
   * P1: a direct message is a one-person space with the workspace's top-level agent, made on a
   * member's first message; the DM channel is one conversation. Someone who is no member of a
   * linked workspace is told once how to become one, and nothing runs.
   */
  private async directMessage(message: Message): Promise<void> {
    const dm = message.channel.id;
    const guild = await this.deps.directory.guildOfDirectMessage(dm, message.author.id, this.deps.guildIds());
    if (guild === null) {
      await this.answerDirectMessage(message);
      return;
    }
    const place = { guild, channel: dm, thread: dm, topLevel: false };
    const direct = await ensureDirectSpace(this.deps.store, {
      platform: 'discord',
      teamId: guild,
      channelId: dm,
      userId: message.author.id,
    });
    if (!direct.ok) {
      await this.deps.platform.post(encodeDiscordThreadId(place), {
        as: { kind: 'system' },
        content: { kind: 'text', text: direct.reason },
      });
      return;
    }
    const members = await this.deps.directory.members(guild);
    const inbound = toInbound(message, place, { botUserId: this.deps.botUserId() ?? '', members });
    const outcome = await this.deps.engine.receive(inbound);
    this.deps.logger.debug(
      { messageId: message.id, outcome: outcome.kind },
      'Discord direct message handled',
    );
  }

  /** Once per direct-message channel and process: where to go instead (nothing runs). */
  private async answerDirectMessage(message: Message): Promise<void> {
    const channel = message.channel;
    if (this.answeredDirectChannels.has(channel.id) || !channel.isSendable()) return;
    this.answeredDirectChannels.add(channel.id);
    await channel.send({ content: DIRECT_MESSAGE_ANSWER, allowedMentions: { parse: [] } });
  }

  private async process(message: Message): Promise<void> {
    if (this.isIgnored(message)) return;
    if (message.guildId === null) {
      await this.directMessage(message);
      return;
    }
    const place = placeOf(message);
    if (place === null) return;
    if (!(await this.deps.directory.isBoundChannel(place.guild, place.channel))) return;
    const botUserId = this.deps.botUserId() ?? '';
    const members = await this.deps.directory.members(place.guild);
    const inbound = toInbound(message, place, { botUserId, members });
    if (place.topLevel) this.deps.platform.nameThread(place.thread, inbound.text);
    else this.deps.platform.knowThread(place.thread);
    const outcome = await this.deps.engine.receive(inbound);
    this.deps.logger.debug({ messageId: message.id, outcome: outcome.kind }, 'Discord message handled');
    await this.deps.store.transaction((tx) =>
      tx.channelCursors.advance('discord', {
        channelId: place.topLevel ? place.channel : place.thread,
        parentChannelId: place.topLevel ? null : place.channel,
        messageId: message.id,
      }),
    );
  }
}
