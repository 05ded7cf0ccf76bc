import type { QueuedJob } from '../ports/job-queue';
import type { SlotLease } from '../waits/fair-slots';
import type { EngineDeps, RunJob, RunLane } from './engine-deps';
import { executeRun } from './execute-run';
import { loadClaimedTurn } from './load-claimed-turn';

interface Lane {
  /** Set once its turn first waits: the queue job is then complete, the lane goes on in memory. */
  detached: boolean;
  /** The run the lane is executing (or last executed). */
  runId: string | null;
  abort: AbortController;
}

/**
 * The queue's handler (T1, T3): a job takes a fair slot, claims its lane (one turn at a time
 * per agent and conversation) and runs the lane's queued turns oldest first. When a turn starts
 * to wait it gives its slot back and the job completes, so the queue (whose concurrency is the
 * slot count) starts the next turn; the waiting turn goes on in memory, holding neither, and
 * takes a slot again when it resumes. A crash loses the in-memory wait, not the turn (T2): the
 * built-in runners' checkpoints let recovery park it on its approval or resume it elsewhere; a
 * graceful stop hands it back, to go on from its checkpoint.
 */
export class LaneWorker {
  private stopping = false;
  private readonly lanes = new Map<Promise<void>, Lane>();

  constructor(private readonly deps: EngineDeps) {}

  /** Resolves when the lane is done, or when its turn starts waiting (the lane goes on). */
  handle(job: QueuedJob<RunJob>): Promise<void> {
    const lane: Lane = { detached: false, runId: null, abort: new AbortController() };
    // Until detached the queue's close governs the turn; after it, the engine's own stop does.
    const onJobAbort = () => {
      if (!lane.detached) lane.abort.abort(job.signal.reason);
    };
    job.signal.addEventListener('abort', onJobAbort);
    let detach = () => {};
    const detached = new Promise<void>((resolve) => {
      detach = () => {
        if (lane.detached) return;
        lane.detached = true;
        if (this.stopping) lane.abort.abort();
        resolve();
      };
    });
    const work = this.runLane(job.data, lane, detach).finally(() => {
      job.signal.removeEventListener('abort', onJobAbort);
      this.lanes.delete(work);
    });
    this.lanes.set(work, lane);
    // After detaching, nobody awaits the lane: its failure is logged here.
    work.catch((error: unknown) => {
      if (lane.detached) this.deps.logger.error({ err: error, runId: lane.runId }, 'a resumed turn failed');
    });
    return Promise.race([work, detached]);
  }

  /** Every lane in progress (attached or not), for `close()` to wait on. */
  inProgress(): Promise<void>[] {
    return [...this.lanes.keys()];
  }

  /**
   * SIGTERM: the turns that were waiting (detached from the queue) stop and hand back: their
   * run is `queued` again, and the next recovery pass (this process's successor at start, or
   * another worker's periodic one) enqueues it. Enqueueing it here could hand it straight
   * back to this closing process.
   */
  stopDetached(): void {
    this.stopping = true;
    for (const lane of this.lanes.values()) if (lane.detached) lane.abort.abort();
  }

  private async runLane(job: RunJob, lane: Lane, detach: () => void): Promise<void> {
    const { deps } = this;
    const signal = lane.abort.signal;
    // A job from routing names its lane: no read before the claim (which finds a lane whose run
    // is done already, or taken by the lane's worker, empty or busy).
    const run = job.lane ?? (await this.laneOf(job.runId));
    if (run === null) return; // done already, or its lane's worker has it
    // T3: a slot, shared fairly across workspaces and spaces.
    const owner = { workspaceId: run.workspaceId, spaceId: run.spaceId };
    let lease = await deps.slots.acquire(owner, signal);
    try {
      // Run the lane's queued turns oldest first until none is left or another worker holds it.
      for (;;) {
        if (signal.aborted || lease === null) return;
        // The claim and the turn's reads in one transaction.
        const next = await deps.store.inWorkspace(run.workspaceId, async (tx) => {
          const claimed = await tx.runs.claimNext(run.agentId, run.conversationId, deps.clock.now());
          return claimed === null ? null : { claimed, loaded: await loadClaimedTurn(tx, deps, claimed) };
        });
        if (next === null) return;
        const { claimed, loaded } = next;
        lane.runId = claimed.id;
        const held: SlotLease = lease;
        const ended = await deps.slots.run(
          claimed.id,
          owner,
          held,
          signal,
          () => executeRun(deps, claimed, loaded, signal),
          detach,
        );
        // The slot the turn holds now (one taken again after a wait), released in `finally`.
        lease = ended.lease;
        // T3: the finish saw no queued run of the lane under its lock: a run queued since is
        // claimed by its own job, so no claim is needed here to find nothing.
        if (!ended.result) return;
        lease ??= await deps.slots.acquire(owner, signal);
      }
    } finally {
      lease?.release();
    }
  }

  /** The lane of a queued run, read from the store; null when it is not queued. */
  private async laneOf(runId: string): Promise<RunLane | null> {
    return this.deps.store.transaction(async (tx) => {
      const run = await tx.runs.findById(runId);
      if (run === null || run.status !== 'queued') return null;
      const conversation = await tx.conversations.findById(run.conversationId);
      return {
        workspaceId: run.workspaceId,
        agentId: run.agentId,
        conversationId: run.conversationId,
        spaceId: conversation?.spaceId ?? '',
      };
    });
  }
}
