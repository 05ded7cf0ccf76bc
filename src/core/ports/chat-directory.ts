import type { BindablePlatform } from '../model/platform';
import type { WorkspaceOverview } from '../model/workspace-overview';
import type { ChannelCursor } from './channel-cursor-store';
import type { MembersNamed } from './routing-reads';

/** A member of a workspace as a front end mentions them: the nickname, and their account on its platform. */
export interface PlatformMember {
  nickname: string;
  /** The member's user id on this platform; null when they linked no account there. */
  userId: string | null;
}

/**
 * What a chat front end reads of Summon's records to translate (P1: team → workspace,
 * channel → space; M11, P8: members), and its back-fill cursors (P11). Read fresh on each call,
 * so a new link or role applies at once; the core implements it over the store
 * (`core/directory/store-chat-directory.ts`). A front end receives it in its constructor;
 * an inbox decoder gets one over the routing transaction.
 */
export interface ChatDirectory {
  /**
   * P19, P20: the workspace (by slug) a GitHub repository (`owner/name`, lower-cased) is bound
   * to through a space's `repos`, with the member `login` belongs to (none without one, or when
   * it is nobody's); null when unbound. P7: its id is what the repository's outgoing calls are
   * stored under.
   */
  repoWorkspace(
    repo: string,
    login?: string,
  ): Promise<{ workspaceId: string; slug: string; members: PlatformMember[] } | null>;
  /** P1: the workspace the team (Slack team, Discord guild) is bound to, or null. */
  workspaceOfTeam(platform: BindablePlatform, teamId: string): Promise<string | null>;
  /**
   * P1: the channel is bound to a space; with `teamId`, to a space of the workspace that team
   * is bound to.
   */
  isBoundChannel(platform: BindablePlatform, channelId: string, teamId?: string): Promise<boolean>;
  /**
   * M11, P8: the members of the team's workspace a text names, by their accounts on this
   * platform or by nickname (none when the team is not bound); never the whole team.
   */
  membersOfTeam(platform: BindablePlatform, teamId: string, named: MembersNamed): Promise<PlatformMember[]>;
  /**
   * P1, M11: the workspace that owns the channel, with its members holding one of `nicknames`
   * (those an outgoing text names; never the whole team). A channel not bound to a space is
   * owned by the workspace `teamId` is bound to, with no members to mention (its outgoing calls
   * are stored in the outbox like every other, P7). Null when neither is bound.
   */
  channelOwner(
    platform: BindablePlatform,
    channelId: string,
    teamId: string | null,
    nicknames?: readonly string[],
  ): Promise<{ workspaceId: string; members: PlatformMember[] } | null>;
  /**
   * A2, P7: the team (Slack team, Discord guild) of the workspace the channel is bound to, so a
   * call into it names its own team; null when the channel is not bound.
   */
  teamOfChannel(platform: BindablePlatform, channelId: string): Promise<string | null>;
  /**
   * P1: the team a direct message belongs to: the team of the workspace its channel is already
   * bound to (a DM space), else the first of `teamIds` whose workspace has the person as a
   * member; null when there is none.
   */
  teamOfDirectMessage(
    platform: BindablePlatform,
    dmChannelId: string,
    userId: string,
    teamIds: readonly string[],
  ): Promise<string | null>;
  /** The agents of the workspace, those of the channel's space first (`/ask` autocomplete); none when unbound. */
  agentsOfChannel(
    platform: BindablePlatform,
    teamId: string,
    channelId: string,
  ): Promise<{ name: string; title: string }[]>;
  /** A12, A13, G4, O3: what a member's home screen shows; null for a team not bound or a stranger (P8). */
  homeOverview(platform: BindablePlatform, teamId: string, userId: string): Promise<WorkspaceOverview | null>;
  /** P11: the back-fill cursors moved since `since`. */
  cursorsSince(platform: BindablePlatform, since: Date): Promise<ChannelCursor[]>;
  /** P11: a channel's or thread's cursor moves to `messageId` (never back). */
  advanceCursor(
    platform: BindablePlatform,
    cursor: { channelId: string; parentChannelId: string | null; messageId: string },
  ): Promise<void>;
}
