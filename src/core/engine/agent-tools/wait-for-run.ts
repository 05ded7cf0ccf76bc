import { type AgentToolContext, pause } from './agent-tool-context';

export type RunWait =
  | { state: 'succeeded'; reply: string }
  | { state: 'failed'; error: string }
  | { state: 'timeout'; status: string }
  | { state: 'aborted' };

/**
 * N11: waits for another agent's turn through the store (so it works whichever worker or
 * process runs it) until it ends, the timeout passes or the caller's own turn is stopped.
 */
export async function waitForRun(
  ctx: AgentToolContext,
  runId: string,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<RunWait> {
  const { deps, turn } = ctx;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (signal.aborted) return { state: 'aborted' };
    const found = await deps.store.inWorkspace(turn.agent.workspaceId, async (tx) => {
      const run = await tx.runs.findById(runId);
      if (run === null) return { state: 'failed' as const, error: 'its turn is gone' };
      if (run.status === 'failed') return { state: 'failed' as const, error: run.error ?? 'it failed' };
      if (run.status !== 'succeeded') return { state: 'running' as const, status: run.status };
      const reply = run.replyMessageId === null ? null : await tx.messages.findById(run.replyMessageId);
      return { state: 'succeeded' as const, reply: reply?.text ?? '' };
    });
    if (found.state !== 'running') return found;
    if (Date.now() >= deadline) return { state: 'timeout', status: found.status };
    await pause(Math.min(ctx.timings.pollMs, Math.max(1, deadline - Date.now())), signal);
  }
}
