import type { ConversationRecord } from '../model/conversation-records';
import type { McpServerSpec } from '../model/mcp/mcp-server';
import type { AgentRecord, SkillRecord, SpaceRecord } from '../model/records';
import type { CheckpointAwait } from './run-checkpoints';
import type { PreparedWorkspace } from './run-workspace';
import type { TurnTools } from './turn-tools';

/** What a run's tool factory is told about the turn it builds tools for. */
export interface TurnToolsScope {
  runId: string;
  agent: AgentRecord;
  space: SpaceRecord;
  conversation: ConversationRecord;
  workingDir: string;
  skills: readonly SkillRecord[];
  /**
   * A9, E1: the runner offers `specs` to a model (the built-in loops) or the MCP tools among
   * them to a CLI agent through Summon's endpoint (E2): only then are the MCP servers' tools
   * listed for the turn.
   */
  modelTools?: boolean;
  /**
   * E1, T3: the turn's MCP servers as its start read them (`turnReads`); absent, the tool kit
   * reads them itself.
   */
  mcpServers?: readonly McpServerSpec[];
  /** E5: the member whose message started the turn (MCP calls are made for them); null: none. */
  memberId?: string | null;
  /** The turn's signal (E1: listing the MCP servers' tools stops with the turn). */
  signal?: AbortSignal;
  /** E1: a row on the turn's status card (a declared MCP server that is unavailable, and why). */
  cardRow?: (line: string) => void;
  /** A12: a tool starts (true) or ends (false) waiting; the run's silence watch is held meanwhile. */
  onWaiting?: (waiting: boolean) => void;
  /** M9, G3: the run's worktrees and git environment; null/absent outside a space with repos. */
  workspace?: PreparedWorkspace | null;
  /** T2: a resumed turn's call that was waiting for its approval waits on that one again. */
  resumedApproval?: { callId: string; approvalId: string };
  /**
   * T2, A9: a resumed turn's call that was waiting on a question or another agent's run waits
   * on that one again (no second card, no second hand-off).
   */
  resumedWait?: ResumedWait;
}

/** T2, A9: the call `callId` of a resumed turn, and what it was waiting on. */
export type ResumedWait = CheckpointAwait & { callId: string };

/**
 * A9: one `TurnTools` per run (surface from the space mode, guardrails per call). The engine
 * calls it with the turn alone: whatever the tools need of the engine was bound when the
 * engine was built. E1: asynchronous, since a turn's MCP tools are listed at its start.
 */
export type TurnToolsFactory = (scope: TurnToolsScope) => TurnTools | Promise<TurnTools>;
