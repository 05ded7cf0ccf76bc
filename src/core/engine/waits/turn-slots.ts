import { FairSlots, type SlotLease, type SlotOwner } from '../../waits/fair-slots';

/** T3: active turns per process until `start` sets the configured bound (`SUMMON_CONCURRENCY`): model-bound turns are I/O. */
export const DEFAULT_CONCURRENCY = 64;

interface HeldTurn {
  owner: SlotOwner;
  lease: SlotLease | null;
  /** Waits in progress; the slot is given back at the first and taken again after the last. */
  waits: number;
  /** Taking the slot again after the last wait (a new wait waits for it first). */
  resuming: Promise<void> | null;
  signal: AbortSignal;
  onSuspend: () => void;
}

/**
 * T1, T3: the slots of this process's active turns. A turn holds one while it works
 * (thinking, running a tool) and gives it back while it waits — on a person, another agent,
 * a push held at the gateway — taking one again, fairly, when the wait ends. A waiting turn
 * also lets go of its queue job (`LaneWorker`), so waiting turns never keep the queue from
 * starting new ones.
 */
export class TurnSlots {
  private readonly slots: FairSlots;
  private readonly held = new Map<string, HeldTurn>();
  /** P15: who is told when a run starts and stops waiting (its platform session's status). */
  private readonly watchers = new Map<string, { listener: (waiting: boolean) => void; waits: number }>();

  constructor(capacity: number) {
    this.slots = new FairSlots(capacity);
  }

  setCapacity(capacity: number): void {
    this.slots.setCapacity(capacity);
  }

  /** A slot for a turn of `owner`; null when `signal` aborts first. */
  acquire(owner: SlotOwner, signal: AbortSignal): Promise<SlotLease | null> {
    return this.slots.acquire(owner, signal);
  }

  /** T3: a slot now, when one is free and no turn waits for one (`FairSlots.tryAcquire`); else null. */
  tryAcquire(): SlotLease | null {
    return this.slots.tryAcquire();
  }

  /**
   * Runs `work` as run `runId`'s, holding `lease`; waits inside it (`suspendWhile`) find the
   * run's slot by its id. Resolves to the lease the run holds at the end (the slot may have
   * been given back and taken again meanwhile), or null if it holds none (aborted while resuming).
   */
  async run<T>(
    runId: string,
    owner: SlotOwner,
    lease: SlotLease,
    signal: AbortSignal,
    work: () => Promise<T>,
    /** Called each time the run starts waiting (its slot given back). */
    onSuspend: () => void = () => {},
  ): Promise<{ result: T; lease: SlotLease | null }> {
    const turn: HeldTurn = { owner, lease, waits: 0, resuming: null, signal, onSuspend };
    this.held.set(runId, turn);
    try {
      const result = await work();
      await turn.resuming;
      return { result, lease: turn.lease };
    } catch (error) {
      await turn.resuming;
      turn.lease?.release(); // a slot taken again after a wait is given back too
      throw error;
    } finally {
      this.held.delete(runId);
    }
  }

  /**
   * T1: while `work` waits, run `runId` holds no slot (when this process runs that turn; a
   * wait elsewhere, e.g. a push at a gateway without the turn, just waits). The slot is taken
   * again before this resolves; a turn stopped meanwhile goes on without one, to wind up.
   */
  async suspendWhile<T>(runId: string, work: () => Promise<T>): Promise<T> {
    const watch = this.watchers.get(runId);
    if (watch !== undefined && ++watch.waits === 1) watch.listener(true);
    try {
      return await this.suspendHeld(runId, work);
    } finally {
      // Told after the slot is taken again: the turn works from here on.
      if (watch !== undefined && --watch.waits === 0 && this.watchers.get(runId) === watch)
        watch.listener(false);
    }
  }

  /**
   * P15: `listener` is told when run `runId` starts waiting (true, at its first wait) and when it
   * works again (false, once its last wait has ended and it holds a slot). Returns the unwatch.
   */
  watchWaits(runId: string, listener: (waiting: boolean) => void): () => void {
    const watch = { listener, waits: 0 };
    this.watchers.set(runId, watch);
    return () => {
      if (this.watchers.get(runId) === watch) this.watchers.delete(runId);
    };
  }

  private async suspendHeld<T>(runId: string, work: () => Promise<T>): Promise<T> {
    const turn = this.held.get(runId);
    if (turn === undefined) return work();
    await turn.resuming;
    turn.waits += 1;
    if (turn.waits === 1) {
      turn.lease?.release();
      turn.lease = null;
      turn.onSuspend();
    }
    try {
      return await work();
    } finally {
      turn.waits -= 1;
      // A turn that ended meanwhile (a gateway wait outliving its turn) takes no slot again.
      if (turn.waits === 0 && this.held.get(runId) === turn) {
        const resuming = this.slots.acquire(turn.owner, turn.signal).then((lease) => {
          turn.lease = lease;
          turn.resuming = null;
        });
        turn.resuming = resuming;
        await resuming;
      }
    }
  }

  stats(): { capacity: number; active: number; waiting: number; suspended: number } {
    const suspended = [...this.held.values()].filter((t) => t.waits > 0).length;
    return { ...this.slots.stats(), suspended };
  }
}
