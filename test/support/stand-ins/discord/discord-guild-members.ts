import type { DiscordStandIn, StandInUser } from './discord-stand-in';

/** Discord's privileged GUILD_MEMBERS intent (IDENTIFY `intents`). */
export const GUILD_MEMBERS_INTENT = 1 << 1;
/** The application flags that allow it: granted (a verified app) or toggled on (an unverified one). */
export const GUILD_MEMBERS_FLAGS = (1 << 14) | (1 << 15);

interface HeldMember {
  user: StandInUser;
  roles: string[];
  nick: string | null;
}

/**
 * P24: the stand-in guild's server roles and who holds them, as Discord tells them: in
 * GUILD_CREATE (`roles`, `members`), in each message's and interaction's `member.roles`, in
 * GUILD_MEMBER_UPDATE / GUILD_MEMBER_REMOVE (only to a session that asked for the members
 * intent, as Discord does), and at `GET /guilds/{guild}/members/{user}`.
 */
export class GuildMembers {
  /** Server roles made by a test: id → name. */
  readonly roles = new Map<string, string>();
  /**
   * A guild over the gateway's `large_threshold`: GUILD_CREATE is marked `large` and lists none
   * of its members (a client learns them from events, or asks REST).
   */
  large = false;
  private readonly held = new Map<string, HeldMember>();

  constructor(private readonly s: DiscordStandIn) {}

  /** A server role (its id is a new snowflake). */
  addRole(name: string): string {
    const id = this.s.newId();
    this.roles.set(id, name);
    return id;
  }

  /** The person is in the guild with these roles (before the bot connects, or quietly). */
  set(user: StandInUser, roles: string[], nick: string | null = null): void {
    for (const role of roles) if (!this.roles.has(role)) throw new Error(`no role ${role} in the guild`);
    this.held.set(user.id, { user, roles: [...roles], nick });
  }

  nickOf(userId: string): string | null {
    return this.held.get(userId)?.nick ?? null;
  }

  rolesOf(userId: string): string[] {
    return [...(this.held.get(userId)?.roles ?? [])];
  }

  /** A moderator changes the person's roles: GUILD_MEMBER_UPDATE, to a session with the members intent. */
  update(user: StandInUser, roles: string[]): void {
    const nick = this.held.get(user.id)?.nick ?? null;
    this.set(user, roles, nick);
    if (!this.intentGranted()) return;
    this.s.gateway.dispatch('GUILD_MEMBER_UPDATE', {
      guild_id: this.s.guildId,
      ...this.memberObject(user.id),
    });
  }

  /** The person leaves (or is kicked): GUILD_MEMBER_REMOVE, to a session with the members intent. */
  remove(user: StandInUser): void {
    this.held.delete(user.id);
    if (!this.intentGranted()) return;
    this.s.gateway.dispatch('GUILD_MEMBER_REMOVE', {
      guild_id: this.s.guildId,
      user: this.s.userObject(user),
    });
  }

  /** A guild member object as Discord's REST and GUILD_CREATE give it; null for someone not in the guild. */
  memberObject(userId: string): Record<string, unknown> | null {
    const member = this.held.get(userId);
    if (member === undefined) return null;
    return {
      user: this.s.userObject(member.user),
      nick: member.nick,
      avatar: null,
      banner: null,
      roles: [...member.roles],
      joined_at: '2024-01-01T12:00:00.000Z',
      premium_since: null,
      deaf: false,
      mute: false,
      flags: 0,
      pending: false,
      communication_disabled_until: null,
    };
  }

  /** GUILD_CREATE's `members`: Discord sends them (small guilds) to a session with the members intent. */
  all(): Record<string, unknown>[] {
    if (!this.intentGranted() || this.large) return [];
    return [...this.held.keys()].flatMap((id) => {
      const member = this.memberObject(id);
      return member === null ? [] : [member];
    });
  }

  /** Whether the last IDENTIFY asked for GUILD_MEMBERS (the gateway refused it without the app's flag). */
  intentGranted(): boolean {
    const last = this.s.gateway.identifies.at(-1);
    return (Number(last?.intents ?? 0) & GUILD_MEMBERS_INTENT) !== 0;
  }
}
