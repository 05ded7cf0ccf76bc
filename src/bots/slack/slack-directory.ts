import type { ChatDirectory } from '../../core/ports/chat-directory';
import type { SlackMemberRef } from './outbound/slack-mrkdwn';

/**
 * What the Slack translation needs to know about people, in Slack's terms, from the core's
 * `ChatDirectory` (P1: the members of the workspace a team or channel belongs to; read fresh on
 * each call so a new link or role applies at once, P8).
 */
export class SlackDirectory {
  /** `teamId`: the Slack team this front end's bot token belongs to (from `auth.test`). */
  constructor(
    private readonly directory: ChatDirectory,
    private readonly teamId: string | null = null,
  ) {}

  /**
   * P1, M11: the workspace that owns the channel, with its members holding one of `nicknames`
   * (those an outgoing text names). A channel not bound to a
   * space (Summon's answer there: link it first; a direct message before its space exists) is
   * owned by the workspace this team is linked to, with no members to mention, so its outgoing
   * calls are stored in the outbox like every other (P7). Null only when the team is not linked.
   */
  async channelOwner(
    channel: string,
    nicknames: readonly string[] = [],
  ): Promise<{ workspaceId: string; members: SlackMemberRef[] } | null> {
    const owner = await this.directory.channelOwner('slack', channel, this.teamId, nicknames);
    if (owner === null) return null;
    return {
      workspaceId: owner.workspaceId,
      members: owner.members.map((m) => ({ nickname: m.nickname, slackUserId: m.userId })),
    };
  }

  /**
   * A2: the Slack team of the workspace the channel is bound to (one token may serve several
   * teams, an org-wide install), or this front end's own team when the channel is not bound.
   */
  async teamOfChannel(channel: string): Promise<string | null> {
    return (await this.directory.teamOfChannel('slack', channel)) ?? this.teamId;
  }

  /**
   * Nicknames by Slack user id of the `accounts` a message mentions, for the team's workspace
   * (inbound `<@U…>` → `@nickname`): only those, never the whole team.
   */
  async nicknamesOfTeam(teamId: string, accounts: readonly string[]): Promise<Map<string, string>> {
    const members = await this.directory.membersOfTeam('slack', teamId, { accounts });
    return new Map(members.flatMap((m) => (m.userId === null ? [] : [[m.userId, m.nickname] as const])));
  }
}
