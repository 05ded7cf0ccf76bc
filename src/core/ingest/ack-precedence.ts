import type { Clock } from '../ports/clock';

export interface AckPrecedenceOptions {
  /** Routing waits for this long without an inbox write taken in (and none still being written). */
  quietMs: number;
  /**
   * The longest routing waits for such a quiet moment: then it routes anyway, and keeps routing
   * without waiting while the rows it takes were stored longer ago than this.
   */
  maxDeferMs: number;
}

/**
 * T4: acknowledgements come before routing. An ack waits for one inbox write; routing a row is
 * several statements, and both share this process's event loop, its CPUs and the database's.
 * Routing a burst while it arrives made every ack of it wait behind routing's work (issue 12:
 * ack p99 grew with the rate while the event loop itself hardly lagged). The inbox is durable:
 * a row routed a few seconds later loses nothing. So while acks are coming in (one is being
 * written, or one was taken in within `quietMs`), routing waits, and routes once they pause.
 *
 * The guard: a lane never waits longer than `maxDeferMs`, and rows stored longer ago than that
 * are routed without waiting. So a burst shorter than `maxDeferMs` is acknowledged first and
 * routed after it; under load that never pauses, routing falls at most about `maxDeferMs`
 * behind before it takes its share again, and never stops.
 */
export class AckPrecedence {
  private writing = 0;
  /** Inbox writes taken in so far: a wait that saw it change was not quiet. */
  private arrivals = 0;

  constructor(
    private readonly clock: Clock,
    private readonly options: AckPrecedenceOptions,
  ) {}

  /** An inbox write (an ack on its way) begins; the returned function ends it. */
  begin(): () => void {
    this.writing += 1;
    this.arrivals += 1;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.writing -= 1;
      this.arrivals += 1;
    };
  }

  /** Where the acks stand now, to ask later whether any came meanwhile (`cameSince`). */
  mark(): number {
    return this.arrivals;
  }

  /** An inbox write was taken in or ended since `mark`, or one is being written now. */
  cameSince(mark: number): boolean {
    return this.writing > 0 || this.arrivals !== mark;
  }

  /**
   * Resolves at once when no ack came since `mark`; else once acks have paused (a whole
   * `quietMs` with none taken in and none being written), once `maxDeferMs` has passed since
   * the call, or once `stop()` says so. True when it ended for the guard (routing is overdue).
   */
  async quiet(stop: () => boolean, mark: number | null): Promise<boolean> {
    if (mark !== null && !this.cameSince(mark)) return false;
    const since = this.clock.now().getTime();
    for (;;) {
      const seen = this.arrivals;
      await pause(this.options.quietMs);
      if (stop()) return false;
      if (this.writing === 0 && seen === this.arrivals) return false;
      if (this.clock.now().getTime() - since >= this.options.maxDeferMs) return true;
    }
  }

  /** A row stored at `storedAt` has waited long enough that routing takes it without yielding. */
  overdue(storedAt: Date): boolean {
    return this.clock.now().getTime() - storedAt.getTime() >= this.options.maxDeferMs;
  }
}

/**
 * A real pause, not the `Clock`'s timer: it measures a pause in this process's own traffic,
 * which a test clock that only moves when told would never end.
 */
const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
