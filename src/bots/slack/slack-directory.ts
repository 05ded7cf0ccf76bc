import type { Store } from '../../core/ports/store';
import type { SlackMemberRef } from './slack-mrkdwn';

/**
 * What the Slack translation needs to know about people: the members of the workspace a team or
 * channel belongs to (P1), read fresh on each call so a new link or role applies at once (P8).
 */
export class SlackDirectory {
  constructor(private readonly store: Store) {}

  /** P1, M11: the workspace that owns the channel and its members; null when it is not bound. */
  async channelOwner(channel: string): Promise<{ workspaceId: string; members: SlackMemberRef[] } | null> {
    return this.store.transaction(async (tx) => {
      const binding = await tx.channelBindings.find('slack', channel);
      if (binding === null) return null;
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
