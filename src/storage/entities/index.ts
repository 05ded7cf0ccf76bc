import { AgentEntity } from './agent.entity';
import { ApprovalEntity } from './approval.entity';
import { ChannelCursorEntity } from './channel-cursor.entity';
import { ConversationEntity } from './conversation.entity';
import { GitCredentialEntity } from './git-credential.entity';
import { GitPushEntity } from './git-push.entity';
import { GuardrailRuleEntity } from './guardrail-rule.entity';
import { ProcessedInboundEventEntity } from './inbound-event.entity';
import { InboxEntity } from './inbox.entity';
import { McpServerAssignmentEntity, McpServerEntity } from './mcp-server.entity';
import { MemberEntity } from './member.entity';
import { MemberInviteEntity } from './member-invite.entity';
import { MessageEntity } from './message.entity';
import { OutboxEntity } from './outbox.entity';
import { QuestionEntity } from './question.entity';
import { RunEntity } from './run.entity';
import { RunCheckpointEntity } from './run-checkpoint.entity';
import { RunSteeringEntity } from './run-steering.entity';
import { SkillEntity } from './skill.entity';
import { ChannelBindingEntity, SpaceEntity, SpaceParticipantEntity } from './space.entity';
import { PlatformBindingEntity, WorkspaceEntity } from './workspace.entity';

/** Every table of the schema; the drift test checks that they match the migrations. */
export const ENTITIES = [
  WorkspaceEntity,
  PlatformBindingEntity,
  MemberEntity,
  AgentEntity,
  SkillEntity,
  SpaceEntity,
  SpaceParticipantEntity,
  ChannelBindingEntity,
  ConversationEntity,
  MessageEntity,
  RunEntity,
  GuardrailRuleEntity,
  ApprovalEntity,
  QuestionEntity,
  ProcessedInboundEventEntity,
  OutboxEntity,
  GitCredentialEntity,
  GitPushEntity,
  MemberInviteEntity,
  ChannelCursorEntity,
  InboxEntity,
  RunCheckpointEntity,
  RunSteeringEntity,
  McpServerEntity,
  McpServerAssignmentEntity,
];
