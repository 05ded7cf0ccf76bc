import type { RunActivityLookup } from '../agents/agent-roster';
import { workspaceOverview } from '../commands/workspace-overview';
import type { BindablePlatform } from '../model/platform';
import type { MemberRecord } from '../model/records';
import type { WorkspaceOverview } from '../model/workspace-overview';
import type { ChannelCursor } from '../ports/channel-cursor-store';
import type { ChatDirectory, PlatformMember } from '../ports/chat-directory';
import type { MembersNamed } from '../ports/routing-reads';
import type { Store } from '../ports/store';

const accountOn = (member: MemberRecord, platform: BindablePlatform | 'github'): string | null =>
  platform === 'github'
    ? (member.githubLogin ?? null)
    : platform === 'slack'
      ? member.slackUserId
      : member.discordUserId;

const asPlatformMember = (member: MemberRecord, platform: BindablePlatform | 'github'): PlatformMember => ({
  nickname: member.nickname,
  userId: accountOn(member, platform),
});

/**
 * The front ends' `ChatDirectory` over the store, read in the system context (it runs before
 * a member is known). Over a routing transaction (`transactionStore`), what it reads and moves
 * commits or rolls back with the routing.
 */
export class StoreChatDirectory implements ChatDirectory {
  constructor(
    private readonly store: Store,
    /** A13: the activity of runs this process executes, for presence on a home screen. */
    private readonly activity?: RunActivityLookup,
  ) {}

  repoWorkspace(
    repo: string,
    login?: string,
  ): Promise<{ workspaceId: string; slug: string; members: PlatformMember[] } | null> {
    return this.store.transaction(async (tx) => {
      const binding = await tx.channelBindings.find('github', repo.toLowerCase());
      const workspace = binding === null ? null : await tx.workspaces.findById(binding.workspaceId);
      if (workspace === null) return null;
      // P8: only the member the login belongs to, never the whole workspace.
      const member =
        login === undefined ? null : await tx.members.findByPlatformUser(workspace.id, 'github', login);
      return {
        workspaceId: workspace.id,
        slug: workspace.slug,
        members: member === null ? [] : [asPlatformMember(member, 'github')],
      };
    });
  }

  workspaceOfTeam(platform: BindablePlatform, teamId: string): Promise<string | null> {
    return this.store.transaction(
      async (tx) => (await tx.platformBindings.find(platform, teamId))?.workspaceId ?? null,
    );
  }

  /** One statement: asked in the same tick as `membersOfTeam` (an inbox decoder), one round trip (T3). */
  isBoundChannel(platform: BindablePlatform, channelId: string, teamId?: string): Promise<boolean> {
    return this.store.transaction((tx) => tx.routingReads.channelIsBound(platform, channelId, teamId));
  }

  /** One statement, as `isBoundChannel`. */
  membersOfTeam(platform: BindablePlatform, teamId: string, named: MembersNamed): Promise<PlatformMember[]> {
    return this.store.transaction(async (tx) =>
      (await tx.routingReads.membersOfTeam(platform, teamId, named)).map((m) =>
        asPlatformMember(m, platform),
      ),
    );
  }

  channelOwner(
    platform: BindablePlatform,
    channelId: string,
    teamId: string | null,
    nicknames: readonly string[] = [],
  ): Promise<{ workspaceId: string; members: PlatformMember[] } | null> {
    return this.store.transaction(async (tx) => {
      const binding = await tx.channelBindings.find(platform, channelId);
      if (binding === null) {
        const team = teamId === null ? null : await tx.platformBindings.find(platform, teamId);
        return team === null ? null : { workspaceId: team.workspaceId, members: [] };
      }
      const members = await tx.members.named(binding.workspaceId, nicknames);
      return {
        workspaceId: binding.workspaceId,
        members: members.map((m) => asPlatformMember(m, platform)),
      };
    });
  }

  teamOfChannel(platform: BindablePlatform, channelId: string): Promise<string | null> {
    return this.store.transaction(async (tx) => {
      const binding = await tx.channelBindings.find(platform, channelId);
      if (binding === null) return null;
      const teams = await tx.platformBindings.listForWorkspace(binding.workspaceId);
      return teams.find((t) => t.platform === platform)?.externalId ?? null;
    });
  }

  teamOfDirectMessage(
    platform: BindablePlatform,
    dmChannelId: string,
    userId: string,
    teamIds: readonly string[],
  ): Promise<string | null> {
    return this.store.transaction(async (tx) => {
      const bound = await tx.channelBindings.find(platform, dmChannelId);
      if (bound !== null) {
        const teams = await tx.platformBindings.listForWorkspace(bound.workspaceId);
        return teams.find((t) => t.platform === platform)?.externalId ?? null;
      }
      for (const teamId of teamIds) {
        const team = await tx.platformBindings.find(platform, teamId);
        if (team === null) continue;
        if ((await tx.members.findByPlatformUser(team.workspaceId, platform, userId)) !== null) return teamId;
      }
      return null;
    });
  }

  agentsOfChannel(
    platform: BindablePlatform,
    teamId: string,
    channelId: string,
  ): Promise<{ name: string; title: string }[]> {
    return this.store.transaction(async (tx) => {
      const team = await tx.platformBindings.find(platform, teamId);
      const channel = await tx.channelBindings.find(platform, channelId);
      if (team === null || channel === null || channel.workspaceId !== team.workspaceId) return [];
      const agents = await tx.agents.list(team.workspaceId);
      const participants = await tx.spaces.listParticipants(channel.spaceId);
      const inSpace = new Set(participants.flatMap((p) => (p.kind === 'agent' ? [p.agentId] : [])));
      // Participants first; any agent of the workspace may be summoned (M2 adds it).
      return [...agents]
        .sort((a, b) => Number(inSpace.has(b.id)) - Number(inSpace.has(a.id)))
        .map((a) => ({ name: a.name, title: a.title }));
    });
  }

  homeOverview(
    platform: BindablePlatform,
    teamId: string,
    userId: string,
  ): Promise<WorkspaceOverview | null> {
    return workspaceOverview(this.store, { platform, teamId, userId }, this.activity);
  }

  cursorsSince(platform: BindablePlatform, since: Date): Promise<ChannelCursor[]> {
    return this.store.transaction((tx) => tx.channelCursors.listSince(platform, since));
  }

  advanceCursor(
    platform: BindablePlatform,
    cursor: { channelId: string; parentChannelId: string | null; messageId: string },
  ): Promise<void> {
    return this.store.transaction((tx) => tx.channelCursors.advance(platform, cursor));
  }
}
