import { type Client, DiscordAPIError, type GuildMember } from 'discord.js';
import type { AccessGroup } from '../../core/model/members/access-group';
import type { Logger } from '../../core/ports/logger';
import type { HeldGroups, PlatformGroups } from '../../core/ports/platform-groups';
import { loggable } from './discord-errors';

/** Discord's JSON error code for "Unknown Member": the person is not in the server. */
const UNKNOWN_MEMBER = 10007;

/**
 * P24: a person's Discord server roles, from discord.js's member cache: filled by GUILD_CREATE,
 * by each message's and interaction's `member` (authoritative), kept current by
 * GUILD_MEMBER_UPDATE and GUILD_MEMBER_REMOVE (the members intent), emptied when a new
 * session starts (`forgetMembers`: a resume replays what was missed, a new session does not);
 * someone not cached is asked for once over REST.
 */
export class DiscordGroups implements PlatformGroups {
  constructor(
    private readonly client: Client,
    private readonly logger: Logger,
  ) {}

  async heldGroups(guildId: string, userId: string, listed: readonly AccessGroup[]): Promise<HeldGroups> {
    const guild = this.client.guilds.cache.get(guildId);
    const roles = listed.filter((group) => group.platform === 'discord' && group.kind === 'role');
    const names = new Map<string, string>();
    for (const group of roles) {
      const name = guild?.roles.cache.get(group.id)?.name;
      if (name !== undefined) names.set(`discord:role:${group.id}`, name);
    }
    const member = guild === undefined ? null : await this.memberOf(guild.id, userId);
    if (member === null) return { held: [], displayName: null, names };
    return {
      held: roles.filter((group) => member.roles.cache.has(group.id)),
      displayName: member.displayName,
      names,
    };
  }

  /** A new gateway session: what was cached may be stale (nothing replays the gap); GUILD_CREATE refills it. */
  forgetMembers(): void {
    for (const guild of this.client.guilds.cache.values()) guild.members.cache.clear();
  }

  private async memberOf(guildId: string, userId: string): Promise<GuildMember | null> {
    const guild = this.client.guilds.cache.get(guildId);
    if (guild === undefined) return null;
    const cached = guild.members.cache.get(userId);
    if (cached !== undefined) return cached;
    try {
      return await guild.members.fetch({ user: userId, cache: true });
    } catch (error) {
      if (error instanceof DiscordAPIError && error.code === UNKNOWN_MEMBER) return null;
      // Not knowing is not holding: refused now, asked again at the next event.
      this.logger.warn({ err: loggable(error), guildId }, 'a Discord member’s roles could not be read');
      return null;
    }
  }
}
