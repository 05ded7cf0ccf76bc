import type { ChatDirectory } from '../../core/ports/chat-directory';
import type { MembersNamed } from '../../core/ports/routing-reads';
import type { DiscordMember } from './outbound/discord-mentions';

/** What the Discord front end looks up in Summon's records (P1: guild → workspace, channel → space). */
export interface DiscordDirectory {
  /** The channel is bound to a space of the workspace the guild is bound to. */
  isBoundChannel(guildId: string, channelId: string): Promise<boolean>;
  /**
   * M11, P8: the members of the guild's workspace with a linked Discord account that a text
   * names: by the accounts its `<@…>` mentions carry, or by the `@nickname`s an agent wrote.
   */
  members(guildId: string, named: MembersNamed): Promise<DiscordMember[]>;
  /** The Summon workspace the guild is bound to (its outbox rows belong to it), or null. */
  workspaceOf(guildId: string): Promise<string | null>;
  /**
   * P1: the guild a direct message belongs to: the guild of the workspace its channel is
   * already bound to (a DM space), else the first of `guildIds` (the bot's servers) whose
   * workspace has the person as a member; null when there is none.
   */
  guildOfDirectMessage(
    dmChannelId: string,
    userId: string,
    guildIds: readonly string[],
  ): Promise<string | null>;
  /** The agents of the space the channel is bound to, for `/ask` autocomplete. */
  agentsOfChannel(guildId: string, channelId: string): Promise<{ name: string; title: string }[]>;
}

/** The core's `ChatDirectory` in Discord's terms. */
export function discordDirectory(directory: ChatDirectory): DiscordDirectory {
  return {
    isBoundChannel: (guildId, channelId) => directory.isBoundChannel('discord', channelId, guildId),
    workspaceOf: (guildId) => directory.workspaceOfTeam('discord', guildId),
    guildOfDirectMessage: (dmChannelId, userId, guildIds) =>
      directory.teamOfDirectMessage('discord', dmChannelId, userId, guildIds),
    members: async (guildId, named) =>
      (await directory.membersOfTeam('discord', guildId, named)).flatMap((m) =>
        m.userId === null ? [] : [{ nickname: m.nickname, discordUserId: m.userId }],
      ),
    agentsOfChannel: (guildId, channelId) => directory.agentsOfChannel('discord', guildId, channelId),
  };
}
