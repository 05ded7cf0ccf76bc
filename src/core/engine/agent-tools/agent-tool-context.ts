import type { TurnToolsScope } from '../../ports/turn-tools-factory';
import type { EngineDeps } from '../engine-deps';
import { markRunWaiting } from '../run-waiting';

/** How long the agent-to-agent tools wait (M23, N11, N13); T1: they are woken, never poll. */
export interface AgentToolTimings {
  /** N11: `ask_agent` returns what is known after this long. */
  askTimeoutMs: number;
  /** N13: an unanswered question stops waiting after this long. */
  questionTimeoutMs: number;
}

export const DEFAULT_AGENT_TOOL_TIMINGS: AgentToolTimings = {
  askTimeoutMs: 10 * 60_000,
  questionTimeoutMs: 24 * 60 * 60_000,
};

/** What an agent-to-agent tool knows: the engine and the calling turn. */
export interface AgentToolContext {
  deps: EngineDeps;
  turn: TurnToolsScope;
  timings: AgentToolTimings;
}

/** A12: a run waiting on another agent or a person is blocked, not silent. */
export async function setWaiting(ctx: AgentToolContext, waiting: boolean): Promise<void> {
  ctx.turn.onWaiting?.(waiting);
  await markRunWaiting(ctx.deps, { runId: ctx.turn.runId, workspaceId: ctx.turn.agent.workspaceId }, waiting);
}
