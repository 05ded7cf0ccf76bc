import type { EngineDeps } from '../engine-deps';

/**
 * A12: a run waiting on an approval, another agent or a person is `blocked`, not silent. The
 * update is best-effort: a failure is logged and the wait goes on.
 */
export async function markRunWaiting(
  deps: Pick<EngineDeps, 'store' | 'logger'>,
  run: { runId: string; workspaceId: string },
  waiting: boolean,
): Promise<void> {
  await deps.store
    .inWorkspace(run.workspaceId, (tx) => tx.runs.update(run.runId, { liveness: waiting ? 'blocked' : 'ok' }))
    .catch((error: unknown) => deps.logger.warn({ err: error, runId: run.runId }, 'liveness update failed'));
}

/** Waits `ms` or until the signal aborts, whichever comes first; never rejects. */
export const pause = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
