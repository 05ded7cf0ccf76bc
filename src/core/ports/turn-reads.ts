import type { ConversationRecord, MessageRecord } from '../model/conversation-records';
import type { McpServerSpec } from '../model/mcp/mcp-server';
import type {
  AgentRecord,
  MemberRecord,
  ParticipantRef,
  RunRecord,
  SkillRecord,
  SpaceRecord,
  WorkspaceRecord,
} from '../model/records';
import type { RunCheckpointRecord } from './run-checkpoints';

/**
 * Everything a claimed turn reads at its start, as the repositories would each have returned
 * it: its workspace, conversation and that conversation's space, the workspace's agents and
 * skills, the members it names, the space's participants, the conversation's latest messages, the
 * message that triggered the run, the run's checkpoint (T2) and its MCP servers (E1). Null or
 * empty where gone.
 */
export interface TurnReads {
  workspace: WorkspaceRecord | null;
  conversation: ConversationRecord | null;
  /** The conversation's space. */
  space: SpaceRecord | null;
  /** The workspace's agents, oldest first (M5's order). */
  agents: AgentRecord[];
  /**
   * P8, M10, G4: the members the turn names, oldest first: the authors of `recent` and of the
   * trigger, who started the run, the space's people. Never the whole workspace (a community
   * of thousands costs a turn what its conversation names).
   */
  members: MemberRecord[];
  skills: SkillRecord[];
  /** The space's participants, in their order. */
  participants: ParticipantRef[];
  /** The conversation's newest `historyMessages`, oldest first (as `messages.listRecent`). */
  recent: MessageRecord[];
  /** The run's trigger message (null when it has none, or it is gone). */
  trigger: MessageRecord | null;
  checkpoint: RunCheckpointRecord | null;
  /**
   * E1, T3: the MCP servers of the run's agent and of the conversation's space, each once, by
   * name (as `mcpServers.forTurn`): read with the rest, not in a transaction of their own.
   */
  mcpServers: McpServerSpec[];
}

/**
 * T3: a turn's reads at its start in one round trip to the database, in the
 * transaction that claimed it, instead of one statement per repository.
 */
export interface TurnReadRepository {
  /**
   * `run.triggerMessageId` absent: the run's own, read in the statement itself — so the reads
   * can be asked with the claim that takes the run, in its round trip (`loadClaimedTurn`).
   */
  read(run: TurnReadsOf, historyMessages: number): Promise<TurnReads>;
}

/** The run whose turn is read: its ids, and its trigger when already known. */
export type TurnReadsOf = Pick<RunRecord, 'id' | 'workspaceId' | 'conversationId'> &
  Partial<Pick<RunRecord, 'triggerMessageId'>>;
