import type { Client, Message } from 'discord.js';
import type { ChatDirectory } from '../../../core/ports/chat-directory';
import type { Logger } from '../../../core/ports/logger';
import type { DiscordDirectory } from '../discord-directory';
import { loggable } from '../discord-errors';
import type { DiscordMessages } from './discord-messages';

/** Discord's largest page of channel messages. */
const PAGE = 100;
/** Threads quiet for longer than this are not back-filled (Discord archives them after a day). */
const ACTIVE_THREAD_DAYS = 7;

/**
 * P11: after a fresh gateway session (the first READY, or a resume Discord refused), fetches
 * what each bound channel and active thread received after the last message Summon processed,
 * oldest first, and hands it to the same handler as live messages: the core's de-duplication
 * (P6) drops what was already run, so nothing said in the gap is lost or run twice.
 */
export class DiscordBackfill {
  constructor(
    private readonly deps: {
      client: Client;
      /** P11: the cursors (the core's directory). */
      cursors: Pick<ChatDirectory, 'cursorsSince'>;
      directory: DiscordDirectory;
      messages: DiscordMessages;
      logger: Logger;
      now: () => Date;
    },
  ) {}

  async run(): Promise<{ channels: number; messages: number }> {
    const since = new Date(this.deps.now().getTime() - ACTIVE_THREAD_DAYS * 86_400_000);
    const cursors = await this.deps.cursors.cursorsSince('discord', since);
    let messages = 0;
    for (const cursor of cursors) {
      try {
        messages += await this.fill(
          cursor.channelId,
          cursor.parentChannelId ?? cursor.channelId,
          cursor.lastMessageId,
        );
      } catch (error) {
        // One channel that cannot be read (deleted, permissions) does not stop the others.
        this.deps.logger.warn(
          { err: loggable(error), channelId: cursor.channelId },
          'back-fill of a Discord channel failed',
        );
      }
    }
    this.deps.logger.info({ channels: cursors.length, messages }, 'Discord back-fill done');
    return { channels: cursors.length, messages };
  }

  private async fill(channelId: string, boundChannelId: string, after: string): Promise<number> {
    const channel = await this.deps.client.channels.fetch(channelId);
    if (channel === null || !channel.isTextBased() || channel.isDMBased()) return 0;
    if (!(await this.deps.directory.isBoundChannel(channel.guildId, boundChannelId))) return 0;
    let count = 0;
    for await (const message of messagesAfter(this.deps.client, channel.id, after)) {
      await this.deps.messages.handle(message);
      count += 1;
    }
    return count;
  }
}

/** P11, T2: what a channel or thread received after message `after`, oldest first, a page at a time. */
export async function* messagesAfter(
  client: Client,
  channelId: string,
  after: string,
): AsyncGenerator<Message> {
  const channel = await client.channels.fetch(channelId);
  if (channel === null || !channel.isTextBased()) return;
  let cursor = after;
  for (;;) {
    const page = await channel.messages.fetch({ after: cursor, limit: PAGE, cache: false });
    const ordered = [...page.values()].sort(byId);
    yield* ordered;
    const last = ordered.at(-1);
    if (last === undefined || ordered.length < PAGE) return;
    cursor = last.id;
  }
}

const byId = (a: Message, b: Message): number => {
  const x = BigInt(a.id);
  const y = BigInt(b.id);
  return x < y ? -1 : x > y ? 1 : 0;
};
