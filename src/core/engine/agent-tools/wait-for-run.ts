import { executeRun } from '../execute-run';
import { type AgentToolContext, pause } from './agent-tool-context';

export type RunWait =
  | { state: 'succeeded'; reply: string }
  | { state: 'failed'; error: string }
  | { state: 'timeout'; status: string }
  | { state: 'aborted' };

/**
 * N11: waits for another agent's turn through the store (so it works whichever worker or
 * process runs it) until it ends, the timeout passes or the caller's own turn is stopped.
 * The waiting run holds a worker slot; if no worker has claimed the awaited turn's lane after
 * `runItselfAfterMs`, the waiting run claims it and runs it here (the claim is atomic, so it
 * runs once), which keeps a queue whose every slot waits from deadlocking.
 */
export async function waitForRun(
  ctx: AgentToolContext,
  awaited: { runId: string; agentId: string; conversationId: string },
  timeoutMs: number,
  signal: AbortSignal,
): Promise<RunWait> {
  const { deps, turn } = ctx;
  const workspaceId = turn.agent.workspaceId;
  const started = Date.now();
  const deadline = started + timeoutMs;
  for (;;) {
    if (signal.aborted) return { state: 'aborted' };
    const found = await deps.store.inWorkspace(workspaceId, async (tx) => {
      const run = await tx.runs.findById(awaited.runId);
      if (run === null) return { state: 'failed' as const, error: 'its turn is gone' };
      if (run.status === 'failed') return { state: 'failed' as const, error: run.error ?? 'it failed' };
      if (run.status !== 'succeeded') return { state: 'running' as const, status: run.status };
      const reply = run.replyMessageId === null ? null : await tx.messages.findById(run.replyMessageId);
      return { state: 'succeeded' as const, reply: reply?.text ?? '' };
    });
    if (found.state !== 'running') return found;
    if (Date.now() >= deadline) return { state: 'timeout', status: found.status };
    if (found.status === 'queued' && Date.now() - started >= ctx.timings.runItselfAfterMs) {
      const claimed = await deps.store.inWorkspace(workspaceId, (tx) =>
        tx.runs.claimNext(awaited.agentId, awaited.conversationId, deps.clock.now()),
      );
      if (claimed !== null) {
        deps.logger.info(
          { component: 'tools', runId: turn.runId, running: claimed.id },
          'no free worker took the awaited turn; running it in the waiting slot',
        );
        await executeRun(deps, claimed, signal);
        continue;
      }
    }
    await pause(Math.min(ctx.timings.pollMs, Math.max(1, deadline - Date.now())), signal);
  }
}
