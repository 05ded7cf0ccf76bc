import type { QueuedJob } from '../ports/job-queue';
import type { SlotLease } from '../waits/fair-slots';
import type { EngineDeps, RunJob } from './engine-deps';
import { executeRun } from './execute-run';

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
    const work = this.runLane(job.data.runId, lane, detach).finally(() => {
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

  private async runLane(runId: string, lane: Lane, detach: () => void): Promise<void> {
    const { deps } = this;
    const signal = lane.abort.signal;
    const found = await deps.store.transaction(async (tx) => {
      const run = await tx.runs.findById(runId);
      const conversation = run === null ? null : await tx.conversations.findById(run.conversationId);
      return { run, conversation };
    });
    const { run, conversation } = found;
    if (run === null || run.status !== 'queued') return; // done already, or its lane's worker has it
    // T3: a slot, shared fairly across workspaces and spaces.
    const owner = { workspaceId: run.workspaceId, spaceId: conversation?.spaceId ?? '' };
    let lease = await deps.slots.acquire(owner, signal);
    try {
      // Run the lane's queued turns oldest first until none is left or another worker holds it.
      for (;;) {
        if (signal.aborted || lease === null) return;
        const claimed = await deps.store.inWorkspace(run.workspaceId, (tx) =>
          tx.runs.claimNext(run.agentId, run.conversationId, deps.clock.now()),
        );
        if (claimed === null) return;
        lane.runId = claimed.id;
        const held: SlotLease = lease;
        const ended = await deps.slots.run(
          claimed.id,
          owner,
          held,
          signal,
          () => executeRun(deps, claimed, signal),
          detach,
        );
        lease = ended.lease ?? (await deps.slots.acquire(owner, signal));
      }
    } finally {
      lease?.release();
    }
  }
}
