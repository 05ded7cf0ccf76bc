import { type Clock, systemClock } from '../ports/clock';
import { idleLoop, type LoopLoad } from '../ports/loop-load';

/** How often a waiting batch looks again. */
const STEP_MS = 5;

/**
 * T4: above this share of a busy loop, while acks keep coming, routing lets them go first. A
 * higher share lets routing delay the acks; a lower one slows routing without steadier acks
 * (`docs/ingest.md`, "Measuring").
 */
export const BUSY_LOOP = 0.7;

/**
 * T4: acks go first. Counts the inbox writes acks wait for in this process; routing asks for a
 * moment without one before each batch, so that under a burst the CPU and the database serve
 * the acks (Slack gives up on an event after 3 s) and routing catches up in the gaps and after.
 * It waits while acks keep coming (one written since its last look, or one under way) and the
 * process's event loop, which the acks and routing share, is busier than `BUSY_LOOP`; then
 * until no ack is waiting for its write. Without it, routing a burst keeps the loop busy and
 * every ack queues behind routing's work.
 *
 * It waits at most `maxMs` before a batch: routing is never stopped by steady traffic, only
 * slowed — it keeps what the loop has beyond the acks' share up to `BUSY_LOOP`, and at least one
 * batch per `maxMs` — and a lull of a few milliseconds is enough. The bound is the clock's time,
 * not a count of looks: on a busy loop each look's timer fires late, and counting looks let a
 * wait of 20 ms grow past 40.
 */
export class AckGate {
  private inFlight = 0;
  /** Acks written since routing last looked. */
  private written = 0;
  private waiters: (() => void)[] = [];

  constructor(
    private readonly maxMs: number,
    private readonly load: LoopLoad = idleLoop,
    private readonly clock: Clock = systemClock,
  ) {}

  /** Runs one ack's write, counted while it is under way. */
  async write<T>(work: () => Promise<T>): Promise<T> {
    this.inFlight += 1;
    try {
      return await work();
    } finally {
      this.inFlight -= 1;
      this.written += 1;
      if (this.inFlight === 0) this.release();
    }
  }

  /** Whether an ack is waiting for its write now. */
  get busy(): boolean {
    return this.inFlight > 0;
  }

  /**
   * Resolves once acks have stopped coming or the loop has room for routing, and no ack is
   * waiting for its write; after `maxMs` whatever the acks do.
   */
  async quiet(): Promise<void> {
    if (this.maxMs <= 0) return;
    const until = this.clock.now().getTime() + this.maxMs;
    const left = () => until - this.clock.now().getTime();
    // Bounded by looks too, so a clock that stands still (a test's) cannot hold routing.
    for (let looks = Math.ceil(this.maxMs / STEP_MS); looks > 0 && left() > 0; looks--) {
      if (!this.acksComing() || this.load.busy() <= BUSY_LOOP) break;
      await sleep(Math.min(STEP_MS, left()));
    }
    await this.noWriteUnderWay(left());
  }

  /** Whether an ack was written since the last look, or one is being written. */
  private acksComing(): boolean {
    const coming = this.inFlight > 0 || this.written > 0;
    this.written = 0;
    return coming;
  }

  private noWriteUnderWay(maxMs: number): Promise<void> {
    if (this.inFlight === 0 || maxMs <= 0) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((waiter) => waiter !== done);
        resolve();
      }, maxMs);
      timer.unref();
      this.waiters.push(done);
    });
  }

  private release(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const waiter of waiters) waiter();
  }
}

const sleep = (ms: number) =>
  new Promise<void>((resolve) => {
    setTimeout(resolve, ms).unref();
  });
