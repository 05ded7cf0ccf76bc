import type { WaitsDeps } from './waits-deps';

/**
 * A12: a run waiting on an approval, another agent or a person is `blocked`, not silent. The
 * update is best-effort: a failure is logged and the wait goes on.
 */
export async function markRunAwaiting(
  deps: Pick<WaitsDeps, 'store' | 'logger'>,
  run: { runId: string; workspaceId: string },
  awaiting: boolean,
): Promise<void> {
  await deps.store
    .inWorkspace(run.workspaceId, (tx) =>
      tx.runs.update(run.runId, { liveness: awaiting ? 'blocked' : 'ok' }),
    )
    .catch((error: unknown) => deps.logger.warn({ err: error, runId: run.runId }, 'liveness update failed'));
}
