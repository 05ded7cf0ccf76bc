import type { EngineDeps } from '../engine-deps';
import type { RunJob } from '../run-job';

/**
 * Wakes a stored `queued` run (its row committed first: the wake-up is not its only record).
 * T3: when this process runs turns and a fair slot is free at once, its lane starts here
 * (`LaneWorker.tryRunHere`): the same claim under the lane's lock, the same slots and hand-back,
 * without the queue's round trips. Otherwise (a `web` process, every slot taken or waited for,
 * closing, a job that does not name its lane) the job is enqueued. T2: a process that
 * dies before the claim leaves the run `queued` for recovery (`recoverRuns`), which enqueues
 * every queued run at a worker's start and every `deadAfterMs / 2`.
 */
/** What `wakeRun` needs: a room that wakes runs includes it in its own dependency type. */
export type WakeRunDeps = Pick<EngineDeps, 'queue' | 'runHere' | 'metrics'>;

export async function wakeRun(deps: WakeRunDeps, job: RunJob): Promise<void> {
  if (deps.runHere?.(job) === true) {
    deps.metrics?.turnWoken('local');
    return;
  }
  await deps.queue.enqueue({ id: job.runId, data: job });
  deps.metrics?.turnWoken('queue');
}
