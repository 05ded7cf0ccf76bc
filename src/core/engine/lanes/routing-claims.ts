import type { NotFoundError } from '../../errors';
import type { RunRecord } from '../../model/records';
import type { StoreTx } from '../../ports/store';
import type { SlotLease } from '../../waits/fair-slots';
import { wakeRun } from '../routing/wake-run';
import type { RunJob, RunLane } from '../run-job';
import { StopListener } from '../stop/stop-listener';
import { type ClaimedTurn, type LoadedTurn, loadClaimedTurn } from '../turn/load-claimed-turn';
import type { TurnDeps } from '../turn/turn-deps';

/** A run routing stored claimed, as its lane takes it up: the run, its reads, its Stop and its slot. */
export interface RoutingClaim extends ClaimedTurn {
  stop: StopListener;
  lease: SlotLease;
}

interface Held {
  lease: SlotLease;
  listening: Promise<StopListener>;
  loaded: Promise<LoadedTurn | NotFoundError> | null;
  run: RunRecord | null;
  timer: NodeJS.Timeout;
}

/**
 * T3: the runs routing claims as it stores them (`LocalLanes.holdForRouting`), from their routing
 * to their lane's start after its commit. Each holds a fair slot, taken when it was free at once
 * (never ahead of a waiter), and listens for its Stop from before the commit (P15: nobody could
 * ask one sooner). A routing that fails gives its holds back (`release`); a hold no start takes
 * within one heartbeat (its routing took that long, or failed unseen) gives its slot back too,
 * and a start that finds no hold hands the run back (`handBack`).
 */
export class RoutingClaims {
  private readonly held = new Map<string, Held>();
  /** The runs held for each routing transaction, for a failed one's to go back at once. */
  private readonly byTransaction = new WeakMap<StoreTx, string[]>();

  constructor(private readonly deps: TurnDeps) {}

  hold(tx: StoreTx, runId: string): boolean {
    const lease = this.deps.slots.tryAcquire();
    if (lease === null) return false;
    this.byTransaction.set(tx, [...(this.byTransaction.get(tx) ?? []), runId]);
    const listening = StopListener.open(this.deps.waits, runId);
    // A hold nobody takes or releases (its lane never started) lapses.
    const timer = setTimeout(() => this.lapse(runId), this.deps.timings.heartbeatMs);
    timer.unref();
    this.held.set(runId, { lease, listening, loaded: null, run: null, timer });
    return true;
  }

  /** Asked in the routing transaction, after the run's INSERT (its reads name the run). */
  read(tx: StoreTx, run: RunRecord): void {
    const held = this.held.get(run.id);
    if (held === undefined) return;
    held.run = run;
    held.loaded = loadClaimedTurn(tx, this.deps, run);
    // Awaited by the lane after the commit; a routing that failed leaves it unawaited.
    held.loaded.catch(() => {});
  }

  /** The held run once its routing committed; null when its hold lapsed (or was never read). */
  async take(runId: string): Promise<RoutingClaim | null> {
    const held = this.held.get(runId);
    if (held === undefined) return null;
    this.held.delete(runId);
    clearTimeout(held.timer);
    const { run, loaded, lease } = held;
    let stop: StopListener | null = null;
    try {
      stop = await held.listening;
      if (run !== null && loaded !== null) return { claimed: run, loaded: await loaded, stop, lease };
    } catch (error) {
      stop?.close();
      lease.release();
      throw error;
    }
    stop.close();
    lease.release();
    return null;
  }

  /**
   * T2: a run routing stored claimed whose hold lapsed before its lane started (its routing took
   * longer than a heartbeat): `queued` again, and woken as any queued run. A compare-and-set on
   * its silence since its claim (A12): a run recovery requeued, or another worker claimed, since
   * is left alone.
   */
  async handBack(job: RunJob, lane: RunLane): Promise<void> {
    const since = new Date((job.claimedAt ?? 0) + 1);
    const now = this.deps.clock.now();
    const queued = await this.deps.store.inWorkspace(lane.workspaceId, (tx) =>
      tx.runs.requeueIfSilent(job.runId, since, now),
    );
    if (queued) await wakeRun(this.deps, { runId: job.runId, lane });
  }

  /** The routing transaction `tx` failed: its holds not taken yet lapse now. */
  release(tx: StoreTx): void {
    for (const runId of this.byTransaction.get(tx) ?? []) this.lapse(runId);
    this.byTransaction.delete(tx);
  }

  private lapse(runId: string): void {
    const held = this.held.get(runId);
    if (held === undefined) return;
    this.held.delete(runId);
    clearTimeout(held.timer);
    held.lease.release();
    void held.listening.then((stop) => stop.close());
  }
}
