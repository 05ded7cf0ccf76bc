import type { RunRecord } from '../../model/records';
import type { JobQueue } from '../../ports/job-queue';
import type { Metrics } from '../../ports/metrics';
import type { StoreTx } from '../../ports/store';
import type { RunJob } from '../run-job';

/**
 * T3: this process's lanes, which start a run at once when it runs turns and a fair slot is
 * free (`LaneWorker`); false: the run is enqueued instead.
 */
export interface LocalLanes {
  tryRunHere(job: RunJob): boolean;
  /**
   * T3: for a run routing is about to store in a thread its own transaction made (no other run
   * can be in that lane): true when this process runs turns and a fair slot is free at once; the
   * slot is then held for the run, which routing stores `running` (claimed) and whose job says so
   * (`claimed`). A hold that no start takes is given up after a heartbeat, or at once when the
   * routing's owner says its transaction failed (`releaseHolds`).
   */
  holdForRouting(tx: StoreTx, runId: string): boolean;
  /** T3: the held run's turn reads, asked in the routing transaction after the run's INSERT. */
  readWithRouting(tx: StoreTx, run: RunRecord): void;
  /** T3: the routing transaction `tx` failed (rolled back): the slots held for its runs go back now. */
  releaseHolds(tx: StoreTx): void;
}

/** What `wakeRun` needs: a room that wakes runs includes it in its own dependency type. */
export interface WakeRunDeps {
  queue: JobQueue<RunJob>;
  metrics?: Metrics;
  /** Absent (a process that runs no turns, a test without a worker): every run is enqueued. */
  localLanes?: LocalLanes;
}

/**
 * Wakes a stored `queued` run (its row committed first: the wake-up is not its only record).
 * T3: when this process runs turns and a fair slot is free at once, its lane starts here
 * (`LaneWorker.tryRunHere`): the same claim under the lane's lock, the same slots and hand-back,
 * without the queue's round trips. Otherwise (a `web` process, every slot taken or waited for,
 * closing, a job that does not name its lane) the job is enqueued. T2: a process that
 * dies before the claim leaves the run `queued` for recovery (`recoverRuns`), which enqueues
 * every queued run at a worker's start and every `deadAfterMs / 2`.
 */
export async function wakeRun(deps: WakeRunDeps, job: RunJob): Promise<void> {
  if (deps.localLanes?.tryRunHere(job) === true) {
    deps.metrics?.turnWoken('local');
    return;
  }
  await deps.queue.enqueue({ id: job.runId, data: job });
  deps.metrics?.turnWoken('queue');
}
