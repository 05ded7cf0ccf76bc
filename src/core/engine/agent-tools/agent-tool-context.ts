import type { EngineDeps } from '../engine-deps';
import { markRunWaiting } from '../run-waiting';
import type { TurnToolsScope } from '../turn-tool-kit';

/** How long the agent-to-agent tools wait, and how often they look (M23, N11, N13). */
export interface AgentToolTimings {
  /** How often a waiting tool reads the store for the reply, result or answer. */
  pollMs: number;
  /** N11: `ask_agent` returns what is known after this long. */
  askTimeoutMs: number;
  /** N13: an unanswered question stops waiting after this long. */
  questionTimeoutMs: number;
  /**
   * A waiting run holds a worker slot (BullMQ's concurrency, the in-process queue's): when no
   * worker has taken the awaited turn after this long, the waiting run runs it itself, so a
   * full queue can never leave a caller waiting on a turn that has no slot to run in.
   */
  runItselfAfterMs: number;
}

export const DEFAULT_AGENT_TOOL_TIMINGS: AgentToolTimings = {
  pollMs: 500,
  askTimeoutMs: 10 * 60_000,
  questionTimeoutMs: 24 * 60 * 60_000,
  runItselfAfterMs: 2000,
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

export { pause } from '../run-waiting';
