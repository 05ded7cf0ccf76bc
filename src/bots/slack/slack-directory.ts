import type { Store } from '../../core/ports/store';
import type { SlackMemberRef } from './slack-mrkdwn';

/**
 * What the Slack translation needs to know about people: the members of the workspace a team or
 * channel belongs to (P1), read fresh on each call so a new link or role applies at once (P8).
 */
export class SlackDirectory {
  /** `teamId`: the Slack team this front end's bot token belongs to (from `auth.test`). */
  constructor(
    private readonly store: Store,
    private readonly teamId: string | null = null,
  ) {}

  /**
   * P1, M11: the workspace that owns the channel and its members. A channel not bound to a
   * space (Summon's answer there: link it first; a direct message before its space exists) is
   * owned by the workspace this team is linked to, with no members to mention, so its outgoing
   * calls are stored in the outbox like every other (P7). Null only when the team is not linked.
   */
  async channelOwner(channel: string): Promise<{ workspaceId: string; members: SlackMemberRef[] } | null> {
    return this.store.transaction(async (tx) => {
      const binding = await tx.channelBindings.find('slack', channel);
      if (binding === null) {
        const team = this.teamId === null ? null : await tx.platformBindings.find('slack', this.teamId);
        return team === null ? null : { workspaceId: team.workspaceId, members: [] };
      }
      const members = await tx.members.list(binding.workspaceId);
      return {
        workspaceId: binding.workspaceId,
        members: members.map((m) => ({ nickname: m.nickname, slackUserId: m.slackUserId })),
      };
    });
  }

  /** Nicknames by Slack user id for the team's workspace (inbound `<@U…>` → `@nickname`). */
  async nicknamesOfTeam(teamId: string): Promise<Map<string, string>> {
    return this.store.transaction(async (tx) => {
      const binding = await tx.platformBindings.find('slack', teamId);
      if (binding === null) return new Map<string, string>();
      const members = await tx.members.list(binding.workspaceId);
      return new Map(
        members.flatMap((m) => (m.slackUserId === null ? [] : [[m.slackUserId, m.nickname] as const])),
      );
    });
  }
}
