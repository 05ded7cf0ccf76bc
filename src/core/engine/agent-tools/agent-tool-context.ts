import type { CheckpointAwait } from '../../ports/run-checkpoints';
import type { StoreTx } from '../../ports/store';
import type { ResumedWait, TurnToolsScope } from '../../ports/turn-tools-factory';
import { markRunAwaiting } from '../waits/mark-run-awaiting';
import type { AgentToolDeps } from './agent-tool-deps';

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
  deps: AgentToolDeps;
  turn: TurnToolsScope;
  timings: AgentToolTimings;
  /**
   * T2, A9: set by the tool kit for the one call of a resumed turn that was waiting (on a
   * question or another run) when its worker died; that call waits on it again.
   */
  resumed?: { current: ResumedWait | undefined };
}

/**
 * T2, A9: what this call waited on before its turn was resumed, if it is that call and it
 * waited on a `kind`; taken once.
 */
export function takeResumedWait(
  ctx: AgentToolContext,
  kind: CheckpointAwait['kind'],
): CheckpointAwait | null {
  const resumed = ctx.resumed?.current;
  if (resumed === undefined || resumed.kind !== kind || ctx.resumed === undefined) return null;
  ctx.resumed.current = undefined;
  return { kind: resumed.kind, id: resumed.id, until: resumed.until };
}

/**
 * T2, A9: the in-flight call of this checkpointed turn now waits on `awaits`, stored with the
 * checkpoint in the caller's transaction; false when the turn has none (a CLI agent's).
 */
export const recordAwaits = (tx: StoreTx, ctx: AgentToolContext, awaits: CheckpointAwait) =>
  tx.checkpoints.setAwaits(ctx.turn.runId, awaits);

/** A12: a run waiting on another agent or a person is blocked, not silent. */
export async function markAwaiting(ctx: AgentToolContext, waiting: boolean): Promise<void> {
  ctx.turn.onWaiting?.(waiting);
  await markRunAwaiting(
    ctx.deps,
    { runId: ctx.turn.runId, workspaceId: ctx.turn.agent.workspaceId },
    waiting,
  );
}
