import type { EntityManager } from 'typeorm';
import type { McpServerSpec } from '../../../core/model/mcp/mcp-server';
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
import { PreparedStatement, type Statement } from '../prepared-statement';
import { hydrateAll, hydrateFirst, sqlLiteral, textLiteral } from '../statements-together';
import { TENANT_SETTINGS } from '../tenant-settings';
import { toAgentRecord } from './agent-repository';
import { toConversationRecord } from './conversation-repository';
import { DIRECTORY_VERSION, DIRECTORY_VERSION_PREPARED } from './directory-version';
import { toMemberRecord } from './member-repository';
import { toMessageRecord } from './message-mapping';
import { readThroughCache } from './read-through-cache';
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
  mcpServers: [],
};

/**
 * The statements of a turn's start, each what its repository would have sent (same filters,
 * same order), sent together. The space is the conversation's, found in the statement itself.
 * Prepared (T3: planned once per connection); each takes the arguments of `turnArguments`:
 * $1 the workspace, $2 the conversation, $3 the run, $4 the history's length, $5 the trigger.
 */
const TURN_TYPES = ['uuid', 'uuid', 'uuid', 'integer', 'uuid'];
const SPACE_OF_CONVERSATION = '(SELECT space_id FROM conversations WHERE id = $2)';
/**
 * P8, M10, G4: the members the turn names, never the whole workspace: the authors of the history
 * it reads and of its trigger, who started the run, and the space's people (its roster). The ids
 * are found first, then their rows by primary key (a generic plan of `id IN (…)` would read the
 * whole table to join them). The trigger's id is a scalar subquery, so `id = $n` is a key
 * lookup: A2's row-level security keeps a `coalesce(…)` beside a column (not leakproof) out of
 * the index conditions, and the trigger's author would be found by reading every message.
 */
const TURN_MEMBERS = `SELECT * FROM members WHERE workspace_id = $1 AND id = ANY (ARRAY(
    SELECT author_member_id FROM (
      SELECT author_member_id FROM messages WHERE conversation_id = $2
      ORDER BY created_at DESC, seq DESC LIMIT $4) AS recent
    UNION SELECT author_member_id FROM messages
      WHERE id = (SELECT coalesce($5, (SELECT trigger_message_id FROM runs WHERE id = $3)))
    UNION SELECT started_by_member_id FROM runs WHERE id = $3
    UNION SELECT member_id FROM space_participants WHERE space_id = ${SPACE_OF_CONVERSATION}))
  ORDER BY created_at, seq`;
const TURN_STATEMENTS = [
  'SELECT * FROM workspaces WHERE id = $1',
  'SELECT * FROM conversations WHERE id = $2',
  `SELECT * FROM spaces WHERE id = ${SPACE_OF_CONVERSATION}`,
  'SELECT * FROM agents WHERE workspace_id = $1 ORDER BY created_at, seq',
  TURN_MEMBERS,
  'SELECT * FROM skills WHERE workspace_id = $1 ORDER BY created_at, seq',
  `SELECT * FROM space_participants WHERE space_id = ${SPACE_OF_CONVERSATION} ORDER BY position`,
  // (created_at, seq): messages stored in one transaction keep the order they were written in.
  'SELECT * FROM messages WHERE conversation_id = $2 ORDER BY created_at DESC, seq DESC LIMIT $4',
].map((text) => new PreparedStatement(TURN_TYPES, text));
const TRIGGER_OF_RUN = new PreparedStatement(
  TURN_TYPES,
  'SELECT * FROM messages WHERE id = (SELECT trigger_message_id FROM runs WHERE id = $3)',
);
const TRIGGER_BY_ID = new PreparedStatement(TURN_TYPES, 'SELECT * FROM messages WHERE id = $5');
const CHECKPOINT = new PreparedStatement(TURN_TYPES, 'SELECT * FROM run_checkpoints WHERE run_id = $3');
/**
 * E1, T3: the statement of `mcpServers.forTurn` for the run's agent and the conversation's
 * space, in the turn's workspace (the agent's), sent with the turn's other reads.
 */
const MCP_SERVERS = new PreparedStatement(
  TURN_TYPES,
  `SELECT s.spec FROM mcp_servers s
    WHERE s.workspace_id = $1
      AND EXISTS (SELECT 1 FROM mcp_server_assignments m
                   WHERE m.mcp_server_id = s.id
                     AND (m.agent_id = (SELECT agent_id FROM runs WHERE id = $3)
                          OR m.space_id = ${SPACE_OF_CONVERSATION}))
    ORDER BY s.name COLLATE "C"`,
);

/** T7: which of `TURN_STATEMENTS` a process may keep (`readThroughCache`): workspace, agents, skills. */
const TURN_CACHED = [0, 3, 5];

/** Every statement a turn's reads prepare (`warm-connections.ts` prepares them at start). */
export const TURN_READ_PREPARED: readonly PreparedStatement[] = [
  ...TURN_STATEMENTS,
  TRIGGER_OF_RUN,
  TRIGGER_BY_ID,
  CHECKPOINT,
  MCP_SERVERS,
  ...DIRECTORY_VERSION_PREPARED,
];

const turnReadStatements = (run: TurnReadsOf, historyMessages: number): Statement[] => {
  const knownTrigger =
    run.triggerMessageId !== undefined && run.triggerMessageId !== null && isUuid(run.triggerMessageId);
  const args = [
    sqlLiteral(run.workspaceId),
    sqlLiteral(run.conversationId),
    sqlLiteral(run.id),
    sqlLiteral(Math.max(0, Math.floor(historyMessages))),
    knownTrigger ? sqlLiteral(run.triggerMessageId as string) : 'NULL',
  ];
  return [
    ...TURN_STATEMENTS.map((statement) => statement.with(...args)),
    run.triggerMessageId === undefined
      ? TRIGGER_OF_RUN.with(...args)
      : knownTrigger
        ? TRIGGER_BY_ID.with(...args)
        : 'SELECT NULL WHERE false',
    CHECKPOINT.with(...args),
    MCP_SERVERS.with(...args),
  ];
};

/** A jsonb column as the simple query protocol returns it: parsed by node-postgres, text by PGlite. */
const specOf = (value: unknown): McpServerSpec =>
  (typeof value === 'string' ? JSON.parse(value) : value) as McpServerSpec;

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
      mcpServers,
    ] = await readThroughCache(manager, {
      version: DIRECTORY_VERSION.id.with(sqlLiteral(run.workspaceId)),
      workspace: { id: run.workspaceId },
      key: 'turn',
      statements: turnReadStatements(run, historyMessages),
      // T7: the workspace, its agents and its skills: only the directory commands write them.
      cachedAt: TURN_CACHED,
      enter: TENANT_SETTINGS.with(textLiteral(run.workspaceId)),
    });
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
      mcpServers: (mcpServers ?? []).map((row) => specOf(row.spec)),
    };
  },
});
