import type { EntityManager } from 'typeorm';
import type { TurnReadRepository, TurnReads, TurnReadsOf } from '../../../core/ports/turn-reads';
import { AgentEntity } from '../../entities/agent.entity';
import { ConversationEntity } from '../../entities/conversation.entity';
import { MemberEntity } from '../../entities/member.entity';
import { MessageEntity } from '../../entities/message.entity';
import { RunCheckpointEntity } from '../../entities/run-checkpoint.entity';
import { SkillEntity } from '../../entities/skill.entity';
import { SpaceEntity, SpaceParticipantEntity } from '../../entities/space.entity';
import { WorkspaceEntity } from '../../entities/workspace.entity';
import { isUuid } from '../ids';
import { hydrateAll, hydrateFirst, queryTogether, sqlLiteral } from '../statements-together';
import { toAgentRecord } from './agent-repository';
import { toConversationRecord } from './conversation-repository';
import { toMemberRecord } from './member-repository';
import { toMessageRecord } from './message-mapping';
import { toCheckpointRecord } from './run-checkpoint-repository';
import { toSkillRecord } from './skill-repository';
import { toParticipantRef, toSpaceRecord } from './space-repository';
import { toWorkspaceRecord } from './workspace-repository';

const EMPTY: TurnReads = {
  workspace: null,
  conversation: null,
  space: null,
  agents: [],
  members: [],
  skills: [],
  participants: [],
  recent: [],
  trigger: null,
  checkpoint: null,
};

/**
 * The statements of a turn's start, each what its repository would have sent (same filters,
 * same order), sent together. The space is the conversation's, found in the statement itself.
 */
const turnReadStatements = (run: TurnReadsOf, historyMessages: number): string[] => {
  const workspace = sqlLiteral(run.workspaceId);
  const conversation = sqlLiteral(run.conversationId);
  const spaceOfConversation = `(SELECT space_id FROM conversations WHERE id = ${conversation})`;
  return [
    `SELECT * FROM workspaces WHERE id = ${workspace}`,
    `SELECT * FROM conversations WHERE id = ${conversation}`,
    `SELECT * FROM spaces WHERE id = ${spaceOfConversation}`,
    `SELECT * FROM agents WHERE workspace_id = ${workspace} ORDER BY created_at, seq`,
    `SELECT * FROM members WHERE workspace_id = ${workspace} ORDER BY created_at, seq`,
    `SELECT * FROM skills WHERE workspace_id = ${workspace} ORDER BY created_at, seq`,
    `SELECT * FROM space_participants WHERE space_id = ${spaceOfConversation} ORDER BY position`,
    // (created_at, seq): messages stored in one transaction keep the order they were written in.
    `SELECT * FROM messages WHERE conversation_id = ${conversation}
      ORDER BY created_at DESC, seq DESC LIMIT ${sqlLiteral(Math.max(0, Math.floor(historyMessages)))}`,
    run.triggerMessageId === undefined
      ? `SELECT * FROM messages WHERE id = (SELECT trigger_message_id FROM runs WHERE id = ${sqlLiteral(run.id)})`
      : run.triggerMessageId !== null && isUuid(run.triggerMessageId)
        ? `SELECT * FROM messages WHERE id = ${sqlLiteral(run.triggerMessageId)}`
        : 'SELECT NULL WHERE false',
    `SELECT * FROM run_checkpoints WHERE run_id = ${sqlLiteral(run.id)}`,
  ];
};

export const turnReadRepository = (manager: EntityManager): TurnReadRepository => ({
  async read(run, historyMessages) {
    if (!isUuid(run.id) || !isUuid(run.workspaceId) || !isUuid(run.conversationId)) return EMPTY;
    const [
      workspaces,
      conversations,
      spaces,
      agents,
      members,
      skills,
      participants,
      newest,
      trigger,
      checkpoints,
    ] = await queryTogether(manager, turnReadStatements(run, historyMessages));
    const workspace = hydrateFirst(manager, WorkspaceEntity, workspaces);
    const conversation = hydrateFirst(manager, ConversationEntity, conversations);
    const space = hydrateFirst(manager, SpaceEntity, spaces);
    const triggerRow = hydrateFirst(manager, MessageEntity, trigger);
    const checkpoint = hydrateFirst(manager, RunCheckpointEntity, checkpoints);
    return {
      workspace: workspace && toWorkspaceRecord(workspace),
      conversation: conversation && toConversationRecord(conversation),
      space: space && toSpaceRecord(space),
      agents: hydrateAll(manager, AgentEntity, agents).map(toAgentRecord),
      members: hydrateAll(manager, MemberEntity, members).map(toMemberRecord),
      skills: hydrateAll(manager, SkillEntity, skills).map(toSkillRecord),
      participants: hydrateAll(manager, SpaceParticipantEntity, participants).map(toParticipantRef),
      recent: hydrateAll(manager, MessageEntity, newest).reverse().map(toMessageRecord),
      trigger: triggerRow && toMessageRecord(triggerRow),
      checkpoint: checkpoint && toCheckpointRecord(checkpoint),
    };
  },
});
