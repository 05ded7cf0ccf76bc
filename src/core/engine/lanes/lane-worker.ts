import type { RunRecord } from '../../model/records';
import type { JobQueue, QueuedJob } from '../../ports/job-queue';
import type { StoreTx } from '../../ports/store';
import type { SlotLease } from '../../waits/fair-slots';
import type { LocalLanes } from '../routing/wake-run';
import type { RunJob, RunLane } from '../run-job';
import { executeRun } from '../turn/execute-run';
import { claimWithStop, type LaneTurn } from '../turn/load-claimed-turn';
import type { TurnDeps } from '../turn/turn-deps';
import { RoutingClaims } from './routing-claims';
import { settledWithin } from './settled-within';

/**
 * After the queue has given up on the turns still running (its close timeout) and aborted
 * them, how long `close()` still waits for each to record its hand-back: within Docker's
 * grace from SIGTERM to SIGKILL after the queue's own close timeout.
 */
const HAND_BACK_GRACE_MS = 1000;

interface Lane {
  /** Set once its turn first waits: the queue job is then complete, the lane goes on in memory. */
  detached: boolean;
  /** The run the lane is executing (or last executed). */
  runId: string | null;
  abort: AbortController;
}

/** A lane started in this process without a queue job (`tryRunHere`), while it is attached. */
interface LocalLane {
  lane: Lane;
  /** Resolves when the lane is done or detached (what a queue job's handler would resolve with). */
  attached: Promise<void>;
}

/**
 * The queue's handler (T1, T3): a job takes a fair slot, claims its lane (one turn at a time
 * per agent and conversation) and runs the lane's queued turns oldest first. When a turn starts
 * to wait it gives its slot back and the job completes, so the queue (whose concurrency is the
 * slot count) starts the next turn; the waiting turn goes on in memory, holding neither, and
 * takes a slot again when it resumes. A crash loses the in-memory wait, not the turn (T2): the
 * built-in runners' checkpoints let recovery park it on its approval or resume it elsewhere; a
 * graceful stop hands it back, to go on from its checkpoint.
 *
 * The same lanes start without a job when the process that queued the run runs turns and has a
 * slot free at once (`tryRunHere`, through `wakeRun`): no queue round trips, the same claim,
 * slots and hand-back.
 */
export class LaneWorker implements LocalLanes {
  private stopping = false;
  /** Set when this process runs turns (`TurnEngine.start`): only then may a lane start here. */
  private accepting = false;
  private readonly lanes = new Map<Promise<void>, Lane>();
  /** Lanes started by `tryRunHere` and not yet detached: `close()` waits for them as the queue does for its jobs. */
  private readonly local = new Set<LocalLane>();

  /** The engine's ports, with these lanes as the ones a woken run starts in (`wakeRun`). */
  private readonly deps: TurnDeps;
  /** T3: runs routing stores claimed, from their routing to their lane's start. */
  private readonly claims: RoutingClaims;

  constructor(deps: Omit<TurnDeps, 'localLanes'>) {
    this.deps = { ...deps, localLanes: this };
    this.claims = new RoutingClaims(this.deps);
  }

  /** This process runs turns: from now on `tryRunHere` may start a lane. */
  accept(): void {
    this.accepting = true;
  }

  /** Resolves when the lane is done, or when its turn starts waiting (the lane goes on). */
  handle(job: QueuedJob<RunJob>): Promise<void> {
    const lane: Lane = { detached: false, runId: null, abort: new AbortController() };
    // Until detached the queue's close governs the turn; after it, the engine's own stop does.
    const onJobAbort = () => {
      if (!lane.detached) lane.abort.abort(job.signal.reason);
    };
    job.signal.addEventListener('abort', onJobAbort);
    return this.start(job.data, lane, null, () => job.signal.removeEventListener('abort', onJobAbort));
  }

  /**
   * T3: runs a routed run's lane here and now, without the queue, when this process runs turns,
   * is not stopping, and a fair slot is free at once (none waited for: `TurnSlots.tryAcquire`),
   * or routing claimed the run with a slot held for it (`holdForRouting`). False otherwise: the
   * caller enqueues the job. A run stored `queued` first is left to recovery by a crash before
   * its claim (T2, `recoverRuns`: at start and every `deadAfterMs / 2`). A lane that throws before
   * it detaches is what a queue job's handler would have thrown: its job is enqueued to be
   * retried (`queue.retry`'s first backoff), as a claim (a run claimed already is left to A12).
   */
  tryRunHere(job: RunJob): boolean {
    const { claimedAt, ...retried } = job;
    let lease: SlotLease | null = null;
    if (claimedAt === undefined || job.lane === undefined) {
      if (!this.accepting || this.stopping || job.lane === undefined) return false;
      lease = this.deps.slots.tryAcquire();
      if (lease === null) return false;
    }
    const lane: Lane = { detached: false, runId: null, abort: new AbortController() };
    const entry: LocalLane = { lane, attached: Promise.resolve() };
    this.local.add(entry);
    const retry = (error: unknown) => this.retryLater(retried, error);
    entry.attached = this.start(job, lane, lease, () => {}, retry, claimedAt !== undefined);
    void entry.attached.finally(() => this.local.delete(entry));
    return true;
  }

  /** T3: a slot held for a run routing is about to store claimed, when one is free at once (`RoutingClaims`). */
  holdForRouting(tx: StoreTx, runId: string): boolean {
    return this.accepting && !this.stopping && this.claims.hold(tx, runId);
  }

  releaseHolds(tx: StoreTx): void {
    this.claims.release(tx);
  }

  readWithRouting(tx: StoreTx, run: RunRecord): void {
    this.claims.read(tx, run);
  }

  /**
   * SIGTERM, after the inbox is closed. Waiting turns (no job of their own) stop now and hand
   * back; the others as the queue says, and lanes started here without a job (`wakeRun`) as if
   * they were its jobs: waited for up to the queue's close timeout, then aborted to hand back.
   * The queue resolves once it has handed unfinished turns back, without waiting for them;
   * aborted, each still records its hand-back (run `queued` again, card "will start again").
   * That is waited for, so a process that exits after close leaves no run `running` to be
   * taken for dead (A12).
   */
  async close(queue: Pick<JobQueue<RunJob>, 'close' | 'closeTimeoutMs'>): Promise<void> {
    this.stopDetached();
    await Promise.all([queue.close(), this.closeLanesHere(queue.closeTimeoutMs)]);
    const inProgress = this.inProgress();
    if (!(await settledWithin(inProgress, HAND_BACK_GRACE_MS))) {
      this.deps.logger.warn(
        { turns: inProgress.length },
        'turns did not stop in time; they will be marked dead',
      );
    }
  }

  /** The lanes started here (no job): waited for up to the queue's close timeout, then handed back. */
  private async closeLanesHere(closeTimeoutMs: number): Promise<void> {
    if (!(await settledWithin(this.attachedHere(), closeTimeoutMs))) this.handBackHere();
  }

  /** Every lane in progress (attached or not), for `close()` to wait on. */
  private inProgress(): Promise<void>[] {
    return [...this.lanes.keys()];
  }

  /** Lanes started here without a job and still attached: `close()` waits for them up to the queue's close timeout. */
  private attachedHere(): Promise<void>[] {
    return [...this.local].map((entry) => entry.attached);
  }

  /**
   * The close timeout passed: lanes started here and still attached are aborted, as the queue
   * aborts its jobs, and hand back (run `queued` again, card "will start again"). With no job to
   * hand back, the run waits for a recovery pass (this process's successor at start, or another
   * worker's periodic one), as a detached lane's does.
   */
  private handBackHere(): void {
    for (const { lane } of this.local) if (!lane.detached) lane.abort.abort();
  }

  /**
   * SIGTERM: the turns that were waiting (detached from the queue) stop and hand back: their
   * run is `queued` again, and the next recovery pass (this process's successor at start, or
   * another worker's periodic one) enqueues it. Enqueueing it here could hand it straight
   * back to this closing process. No lane starts here any more (`tryRunHere`).
   */
  private stopDetached(): void {
    this.stopping = true;
    for (const lane of this.lanes.values()) if (lane.detached) lane.abort.abort();
  }

  /**
   * Runs `job`'s lane (with `lease` when a slot is held already); resolves when the lane is done
   * or detached. `failed`: what a lane that throws before detaching does instead of rejecting.
   */
  private start(
    job: RunJob,
    lane: Lane,
    lease: SlotLease | null,
    cleanUp: () => void,
    failed?: (error: unknown) => void,
    routed = false,
  ): Promise<void> {
    let detach = () => {};
    const detached = new Promise<void>((resolve) => {
      detach = () => {
        if (lane.detached) return;
        lane.detached = true;
        if (this.stopping) lane.abort.abort();
        resolve();
      };
    });
    const work = this.runLane(job, lane, detach, lease, routed).finally(() => {
      cleanUp();
      this.lanes.delete(work);
    });
    this.lanes.set(work, lane);
    // After detaching, nobody awaits the lane: its failure is logged here.
    work.catch((error: unknown) => {
      if (lane.detached) this.deps.logger.error({ err: error, runId: lane.runId }, 'a resumed turn failed');
      else failed?.(error);
    });
    const attached = Promise.race([work, detached]);
    return failed === undefined ? attached : attached.catch(() => {});
  }

  /** A lane started here threw before detaching: its job goes to the queue, to be retried there. */
  private retryLater(job: RunJob, error: unknown): void {
    const { deps } = this;
    deps.logger.warn(
      { err: error, runId: job.runId },
      'a turn started here failed; retried through the queue',
    );
    deps.queue
      .enqueue({ id: job.runId, data: job }, { delayMs: deps.queue.retry.backoffMs })
      .then(() => deps.metrics?.turnWoken('queue'))
      .catch((failure: unknown) =>
        // Left `queued`: the next recovery pass enqueues it (T2).
        deps.logger.error({ err: failure, runId: job.runId }, 'a failed turn could not be enqueued again'),
      );
  }

  private async runLane(
    job: RunJob,
    lane: Lane,
    detach: () => void,
    given: SlotLease | null,
    routed: boolean,
  ): Promise<void> {
    const { deps } = this;
    const signal = lane.abort.signal;
    // A job from routing names its lane: no read before the claim (which finds a lane whose run
    // is done already, or taken by the lane's worker, empty or busy).
    let lease = given;
    try {
      const run = job.lane ?? (await this.laneOf(job.runId));
      if (run === null) return; // done already, or its lane's worker has it
      // T3: routing claimed the run and holds its slot: its turn starts without a claim.
      let first: LaneTurn | null = null;
      if (routed) {
        const claim = await this.claims.take(job.runId);
        if (claim === null) return await this.claims.handBack(job, run);
        ({ lease, ...first } = claim);
      }
      // T3: a slot, shared fairly across workspaces and spaces (taken already by `tryRunHere`).
      const owner = { workspaceId: run.workspaceId, spaceId: run.spaceId };
      lease ??= await deps.slots.acquire(owner, signal);
      // Run the lane's queued turns oldest first until none is left or another worker holds it.
      for (;;) {
        // A run claimed already runs even when aborted: its turn hands it back (T2).
        if (first === null && (signal.aborted || lease === null)) return;
        const next = first ?? (await claimWithStop(deps, run, lane.runId === null ? job.runId : null));
        first = null;
        if (next === null || lease === null) return;
        const { claimed, loaded, stop } = next;
        lane.runId = claimed.id;
        const held: SlotLease = lease;
        const ended = await deps.slots.run(
          claimed.id,
          owner,
          held,
          signal,
          () => executeRun(deps, claimed, loaded, signal, stop),
          detach,
        );
        // The slot the turn holds now (one taken again after a wait), released in `finally`.
        lease = ended.lease;
        // T3: the finish saw no queued run of the lane under its lock: a run queued since is
        // claimed by its own wake-up (a job, or a lane started here), so no claim is needed here
        // to find nothing.
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
