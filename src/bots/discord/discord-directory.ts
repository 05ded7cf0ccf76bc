import type { Store } from '../../core/ports/store';
import type { DiscordMember } from './discord-mentions';

/** What the Discord front end looks up in Summon's records (P1: guild → workspace, channel → space). */
export interface DiscordDirectory {
  /** The channel is bound to a space of the workspace the guild is bound to. */
  isBoundChannel(guildId: string, channelId: string): Promise<boolean>;
  /** Members of the guild's workspace with a linked Discord account (M11, P8). */
  members(guildId: string): Promise<DiscordMember[]>;
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

/** The directory over the store (read in the system context: it runs before a member is known). */
export class StoreDiscordDirectory implements DiscordDirectory {
  constructor(private readonly store: Store) {}

  isBoundChannel(guildId: string, channelId: string): Promise<boolean> {
    return this.store.transaction(async (tx) => {
      const guild = await tx.platformBindings.find('discord', guildId);
      const channel = await tx.channelBindings.find('discord', channelId);
      return guild !== null && channel !== null && channel.workspaceId === guild.workspaceId;
    });
  }

  workspaceOf(guildId: string): Promise<string | null> {
    return this.store.transaction(
      async (tx) => (await tx.platformBindings.find('discord', guildId))?.workspaceId ?? null,
    );
  }

  guildOfDirectMessage(
    dmChannelId: string,
    userId: string,
    guildIds: readonly string[],
  ): Promise<string | null> {
    return this.store.transaction(async (tx) => {
      const bound = await tx.channelBindings.find('discord', dmChannelId);
      if (bound !== null) {
        const guilds = await tx.platformBindings.listForWorkspace(bound.workspaceId);
        return guilds.find((g) => g.platform === 'discord')?.externalId ?? null;
      }
      for (const guildId of guildIds) {
        const guild = await tx.platformBindings.find('discord', guildId);
        if (guild === null) continue;
        if ((await tx.members.findByPlatformUser(guild.workspaceId, 'discord', userId)) !== null)
          return guildId;
      }
      return null;
    });
  }

  members(guildId: string): Promise<DiscordMember[]> {
    return this.store.transaction(async (tx) => {
      const guild = await tx.platformBindings.find('discord', guildId);
      if (guild === null) return [];
      return (await tx.members.list(guild.workspaceId)).flatMap((m) =>
        m.discordUserId === null ? [] : [{ nickname: m.nickname, discordUserId: m.discordUserId }],
      );
    });
  }

  agentsOfChannel(guildId: string, channelId: string): Promise<{ name: string; title: string }[]> {
    return this.store.transaction(async (tx) => {
      const guild = await tx.platformBindings.find('discord', guildId);
      const channel = await tx.channelBindings.find('discord', channelId);
      if (guild === null || channel === null || channel.workspaceId !== guild.workspaceId) return [];
      const agents = await tx.agents.list(guild.workspaceId);
      const participants = await tx.spaces.listParticipants(channel.spaceId);
      const inSpace = new Set(participants.flatMap((p) => (p.kind === 'agent' ? [p.agentId] : [])));
      // Participants first; any agent of the workspace may be summoned (M2 adds it).
      return [...agents]
        .sort((a, b) => Number(inSpace.has(b.id)) - Number(inSpace.has(a.id)))
        .map((a) => ({ name: a.name, title: a.title }));
    });
  }
}
