import type { EntityManager } from 'typeorm';
import type { RoutingKey, RoutingReadRepository } from '../../../core/ports/routing-reads';
import { AgentEntity } from '../../entities/agent.entity';
import { ConversationEntity } from '../../entities/conversation.entity';
import { MemberEntity } from '../../entities/member.entity';
import { ChannelBindingEntity, SpaceEntity, SpaceParticipantEntity } from '../../entities/space.entity';
import { WorkspaceEntity } from '../../entities/workspace.entity';
import { hydrateAll, hydrateFirst, queryTogether, textLiteral } from '../statements-together';
import { toAgentRecord } from './agent-repository';
import { toChannelBindingRecord } from './channel-binding-repository';
import { toConversationRecord } from './conversation-repository';
import { toMemberRecord } from './member-repository';
import { toParticipantRef, toSpaceRecord } from './space-repository';
import { toWorkspaceRecord } from './workspace-repository';

/**
 * Routing's statements, each what its repository sends on its own (same filters, same order),
 * sent together; the workspace and the bound space are found inside the statements.
 */
const routingStatements = (key: RoutingKey): string[] => {
  const platform = textLiteral(key.platform);
  const workspace =
    'slug' in key.workspace
      ? `(SELECT id FROM workspaces WHERE slug = ${textLiteral(key.workspace.slug)})`
      : `(SELECT workspace_id FROM platform_bindings
           WHERE platform = ${textLiteral(key.workspace.platform)} AND external_id = ${textLiteral(key.workspace.externalId)})`;
  const binding = `channel_bindings WHERE platform = ${platform} AND channel_id = ${textLiteral(key.channelId)}`;
  const boundSpace = `(SELECT space_id FROM ${binding})`;
  const sender = textLiteral(key.senderId);
  // P8: the terminal's sender is a nickname (M10: case ignored), Slack's and Discord's a linked account.
  const senderMatch =
    key.platform === 'terminal'
      ? `lower(nickname) = lower(${sender})`
      : key.platform === 'slack'
        ? `slack_user_id = ${sender}`
        : `discord_user_id = ${sender}`;
  return [
    `SELECT * FROM workspaces WHERE id = ${workspace}`,
    `SELECT * FROM ${binding}`,
    `SELECT * FROM spaces WHERE id = ${boundSpace} AND workspace_id = ${workspace}`,
    `SELECT * FROM members WHERE workspace_id = ${workspace} AND ${senderMatch}`,
    `SELECT * FROM agents WHERE workspace_id = ${workspace} ORDER BY created_at, seq`,
    `SELECT * FROM members WHERE workspace_id = ${workspace} ORDER BY created_at, seq`,
    `SELECT * FROM conversations WHERE platform = ${platform} AND platform_thread_ref = ${textLiteral(key.thread)}`,
    `SELECT * FROM space_participants WHERE space_id = ${boundSpace} ORDER BY position`,
  ];
};

/** The workspace a team or guild is bound to, as a subquery. */
const teamWorkspace = (platform: string, teamId: string) =>
  `(SELECT workspace_id FROM platform_bindings
      WHERE platform = ${textLiteral(platform)} AND external_id = ${textLiteral(teamId)})`;

export const routingReadRepository = (manager: EntityManager): RoutingReadRepository => ({
  async membersOfTeam(platform, teamId) {
    const [rows] = await queryTogether(manager, [
      `SELECT * FROM members WHERE workspace_id = ${teamWorkspace(platform, teamId)} ORDER BY created_at, seq`,
    ]);
    return hydrateAll(manager, MemberEntity, rows).map(toMemberRecord);
  },

  async channelIsBound(platform, channelId, teamId) {
    const inTeam = teamId === undefined ? '' : ` AND workspace_id = ${teamWorkspace(platform, teamId)}`;
    const [rows] = await queryTogether(manager, [
      `SELECT EXISTS (SELECT 1 FROM channel_bindings
         WHERE platform = ${textLiteral(platform)} AND channel_id = ${textLiteral(channelId)}${inTeam}) AS bound`,
    ]);
    return rows?.[0]?.bound === true;
  },

  async read(key) {
    const [workspaces, bindings, spaces, senders, agents, members, conversations, participants] =
      await queryTogether(manager, routingStatements(key));
    const workspace = hydrateFirst(manager, WorkspaceEntity, workspaces);
    const binding = hydrateFirst(manager, ChannelBindingEntity, bindings);
    const space = hydrateFirst(manager, SpaceEntity, spaces);
    const sender = hydrateFirst(manager, MemberEntity, senders);
    const conversation = hydrateFirst(manager, ConversationEntity, conversations);
    return {
      workspace: workspace && toWorkspaceRecord(workspace),
      binding: binding && toChannelBindingRecord(binding),
      space: space && toSpaceRecord(space),
      sender: sender && toMemberRecord(sender),
      agents: hydrateAll(manager, AgentEntity, agents).map(toAgentRecord),
      members: hydrateAll(manager, MemberEntity, members).map(toMemberRecord),
      conversation: conversation && toConversationRecord(conversation),
      participants: hydrateAll(manager, SpaceParticipantEntity, participants).map(toParticipantRef),
    };
  },
});
