import type { InboxEntry, InboxRecord } from '../model/inbox';
import type { Platform } from '../model/platform';
import type { IngestOutcome, ReceiveOutcome } from '../ports/chat-engine';
import type { InboxDecoder } from '../ports/inbox-decoder';
import type { LoopLoad } from '../ports/loop-load';
import type { Metrics } from '../ports/metrics';
import type { StoreTx } from '../ports/store';
import { AckGate } from './ack-gate';
import { type InboxRetries, type InboxRowDeps, InboxRowRouting, type RoutedRow } from './inbox-row-routing';
import { LaneLooks, type Look } from './lane-looks';
import { OutageRefusals } from './outage-refusals';

export interface InboxRouterOptions extends InboxRetries {
  /** Threads routed at once (each in its own transaction); one thread is always routed in order. */
  lanes: number;
  /** How often rows stored by another process, or due for a retry, are looked for. */
  pollMs: number;
  /** Routed rows are deleted after this long (their key stays in `processed_inbound_events`). */
  retentionMs: number;
  /**
   * Rows one lane routes in one transaction at most (one commit for a burst), claimed as runs
   * (`claimRun`: a row only after every earlier row of its thread and channel), so order holds.
   * A batch that fails is rolled back whole and its rows routed again one transaction each.
   */
  batch: number;
  /**
   * Rows a lane routes in one transaction at most while it is behind: its last batch was full
   * (its claims took every row they asked for). A busy channel is routed one transaction at a
   * time (its top-level messages in order), and a batch's fixed costs (acks first, the claim,
   * the COMMIT) are paid per transaction: a larger batch spends them over more rows, so a
   * backlog drains instead of staying. Absent, `batch` when that is given, else 32.
   */
  catchUpBatch: number;
  /**
   * Acks first (`AckGate`): before a batch, while acks keep coming, routing waits at most this
   * long for the loop to have room and for no ack of this process to be waiting for its write;
   * 0 routes at once.
   */
  acksFirstMs: number;
}

export const DEFAULT_INBOX_OPTIONS: InboxRouterOptions = {
  lanes: 4,
  pollMs: 1000,
  maxAttempts: 5,
  retryBaseMs: 500,
  retentionMs: 86_400_000,
  batch: 16,
  catchUpBatch: 32,
  // T3, T4: a reply's budget (100 ms at p99) cannot hold a longer wait before its routing.
  acksFirstMs: 20,
};

/** Prune once in this many polls. */
const PRUNE_EVERY_POLLS = 600;

export interface InboxRouterDeps<R extends { outcome: ReceiveOutcome }> extends InboxRowDeps<R> {
  /** T4: events received, acknowledged and de-duplicated here; absent: nothing counted. */
  metrics?: Metrics | undefined;
  /** T4: how busy this process's event loop is (acks first); absent: routing waits only for writes. */
  load?: LoopLoad | undefined;
}

/**
 * How a batch ended: no row to claim; its last claim took all it could (`drained`); it was full
 * (its claims took every row they asked for: a backlog); or there may be more (a failure, or
 * rows routed one transaction each).
 */
type Batch = 'none' | 'drained' | 'full' | 'more';

/** The options given, a catch-up batch absent taken from the batch given (a test's `batch: 1` stays 1). */
const inboxOptions = (options: Partial<InboxRouterOptions>): InboxRouterOptions => ({
  ...DEFAULT_INBOX_OPTIONS,
  ...options,
  catchUpBatch: options.catchUpBatch ?? options.batch ?? DEFAULT_INBOX_OPTIONS.catchUpBatch,
});

/**
 * T4: the front ends store each inbound event once and acknowledge; this routes the stored
 * rows afterwards. Each row is claimed under a row lock (`FOR UPDATE SKIP LOCKED`) in the
 * transaction that routes it and marks it routed, so a crash can neither lose nor double it:
 * an uncommitted routing leaves the row unrouted for the next lane, process or start. Only a
 * thread's oldest unrouted row is claimable, so a thread is routed in order; different threads
 * are routed concurrently, up to `lanes`.
 */
export class InboxRouter<R extends { outcome: ReceiveOutcome }> {
  private readonly decoders = new Map<Platform, InboxDecoder>();
  private readonly options: InboxRouterOptions;
  private readonly running = new Set<Promise<void>>();
  /** Bumped by every kick: a lane that found nothing looks again if it changed meanwhile. */
  private generation = 0;
  private timer: NodeJS.Timeout | null = null;
  private polls = 0;
  private closed = false;
  /** After a batch failed: how many rows are routed one transaction each, to find the failing one. */
  private singly = 0;
  private readonly acks: AckGate;
  /** What this process's lanes will look at (`kick`). */
  private readonly looks = new LaneLooks();
  private readonly rows: InboxRowRouting<R>;
  /** T2: the events not taken in while the database is away, told once per outage. */
  private readonly refusals: OutageRefusals;

  constructor(
    private readonly deps: InboxRouterDeps<R>,
    options: Partial<InboxRouterOptions> = {},
  ) {
    this.options = inboxOptions(options);
    this.acks = new AckGate(this.options.acksFirstMs, deps.load, deps.clock);
    this.rows = new InboxRowRouting(deps, this.options, this.decoders);
    this.refusals = new OutageRefusals(deps.logger.child({ component: 'inbox' }));
  }

  /** Takes up the rows a previous process left (T4), then keeps looking every `pollMs`. */
  start(): void {
    this.closed = false;
    this.timer = setInterval(() => this.poll(), this.options.pollMs);
    this.timer.unref();
    this.kick();
  }

  /** A front end's decoder; that platform's rows are routed from now on. */
  use(platform: Platform, decoder: InboxDecoder): void {
    this.decoders.set(platform, decoder);
    this.kick();
  }

  /** T4: the one write before the ack. */
  async ingest(entry: InboxEntry): Promise<IngestOutcome> {
    const metrics = this.deps.metrics;
    metrics?.eventReceived(entry.platform);
    let stored: boolean;
    try {
      stored = await this.acks.write(() => this.deps.store.addToInbox(entry));
    } catch (error) {
      // T2: the front end refuses the event (its platform may send it again) and says nothing more.
      this.refusals.count(error);
      throw error;
    }
    this.refusals.taken();
    metrics?.eventAcknowledged(entry.platform);
    if (!stored) metrics?.eventDeduplicated(entry.platform);
    if (stored) this.kick(entry);
    return { stored };
  }

  /** Stops taking rows; resolves once the rows being routed are done. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    await this.settled();
  }

  /** Resolves once no lane is routing. */
  async settled(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }

  /**
   * Starts a lane when one is free; a busy lane sees the kick and looks again. With the row that
   * was stored (`entry`), no lane is started when one of this process's lanes will look for it
   * anyway: a lane whose claim has not answered yet, or the lane routing the row's thread or
   * channel (the row cannot be claimed before those rows are routed). A lane started there
   * would most often find nothing: a claim for no row, a round trip that holds the acks up (T4;
   * `docs/ingest.md`, "Measuring").
   */
  kick(entry?: Pick<InboxEntry, 'platform' | 'threadKey' | 'channelKey'>): void {
    this.generation += 1;
    if (this.closed || this.decoders.size === 0 || this.running.size >= this.options.lanes) return;
    if (entry !== undefined && this.looks.willSee(entry)) return;
    const lane: Promise<void> = this.lane()
      .catch((error: unknown) => {
        this.deps.logger.error({ component: 'inbox', err: String(error) }, 'inbox lane failed');
        return this.generation;
      })
      .then((lastLook) => {
        this.running.delete(lane);
        // Lanes that gave up together may all have missed a row stored meanwhile.
        if (this.running.size === 0 && lastLook !== this.generation) this.kick();
      });
    this.running.add(lane);
  }

  private poll(): void {
    this.polls += 1;
    this.kick();
    if (this.polls % PRUNE_EVERY_POLLS === 0) {
      const before = new Date(this.deps.clock.now().getTime() - this.options.retentionMs);
      this.deps.store
        .transaction((tx) => tx.inbox.prune(before))
        .catch((error: unknown) =>
          this.deps.logger.warn({ component: 'inbox', err: String(error) }, 'inbox prune failed'),
        );
    }
  }

  /** Routes rows until none is claimable; resolves with the kick count of its last look. */
  private async lane(): Promise<number> {
    // T4: a lane whose last batch was full is behind, and routes its next in a larger one.
    let behind = false;
    for (;;) {
      const seen = this.generation;
      if (this.closed) return seen;
      const look = this.looks.begin();
      let batch: Batch;
      try {
        batch = await this.routeBatch(look, behind ? this.options.catchUpBatch : this.options.batch);
      } catch (error) {
        this.looks.end(look);
        throw error;
      }
      // Its last claim took every row it could (`drained`: no need to look again and find
      // nothing), or found none: another lane still running looks again after its rows, the
      // last one looks again if a kick came meanwhile (a row stored after its claim was sent).
      const again =
        batch === 'more' ||
        batch === 'full' ||
        (batch === 'drained' && seen !== this.generation) ||
        (batch === 'none' && this.running.size === 1 && seen !== this.generation);
      behind = batch === 'full';
      // The rows' threads and channels are let go only now, in the tick that decided: a row
      // of theirs stored meanwhile started no lane, and this one looks for it next.
      this.looks.end(look);
      if (!again) return seen;
    }
  }

  /**
   * Routes the next claimable rows (up to `most`) in one transaction, then does what follows
   * each, in order. `none` when there was none (or the store could not be reached); `drained`
   * when its last claim took fewer rows than it asked for (all it could claim then); `full` when
   * its claims took every row they asked for; `more` after a failure, and while rows are routed
   * one transaction each. `claimed` holds the rows whose routing began: on a failure,
   * the last is the one that failed. Its claims' rows are kept in `look`, for the lane to let go.
   */
  private async routeBatch(look: Look, most: number): Promise<Batch> {
    const claimed: InboxRecord[] = [];
    const limit = this.singly > 0 ? 1 : Math.max(1, most);
    let drained = false;
    let done: RoutedRow<R>[];
    let used: StoreTx | null = null;
    try {
      // T4: acks first; waiting here, before the transaction, holds no connection.
      await this.acks.quiet();
      done = await this.deps.store.transaction(async (tx) => {
        used = tx;
        const routed: RoutedRow<R>[] = [];
        // T4: one claim takes a run of rows routable in order (heads of threads, and the rows
        // after them: a busy channel's next messages); the next look finds what follows.
        let run: InboxRecord[] = [];
        // A claimed run is routed whole (its events are recorded ahead, `readAhead`).
        while (run.length > 0 || (routed.length < limit && !this.closed)) {
          if (run.length === 0) {
            // The last claim took all it could: what is stored since is kicked, and looked for next.
            if (drained) break;
            const asked = limit - routed.length;
            run = await tx.inbox.claimRun([...this.decoders.keys()], this.deps.clock.now(), asked);
            this.looks.took(look, run);
            this.looks.answered(look);
            drained = run.length < asked;
            if (run.length === 0) break;
            // T3: the run's reads and event records go with its first row's lookups.
            this.rows.readAhead(tx, run);
          }
          const record = run.shift() as InboxRecord;
          claimed.push(record);
          routed.push(await this.rows.route(tx, record));
        }
        return routed;
      });
    } catch (error) {
      this.looks.answered(look);
      if (used !== null) this.deps.rolledBack?.(used);
      const record = claimed[claimed.length - 1];
      if (record === undefined) {
        this.deps.logger.warn({ component: 'inbox', err: String(error) }, 'inbox could not be read');
        return 'none';
      }
      if (claimed.length > 1) {
        // Nothing of the batch committed: its rows go again one transaction each, so only
        // the row that fails is counted as failing (P6: none of them was recorded).
        this.singly = claimed.length;
        return 'more';
      }
      if (this.singly > 0) this.singly -= 1;
      await this.rows.recordFailure(record, error);
      return 'more';
    }
    this.looks.answered(look);
    if (this.singly > 0) this.singly -= done.length;
    if (done.length === 0) return 'none';
    for (const one of done) await this.rows.afterCommit(one);
    if (this.singly > 0) return 'more';
    return drained ? 'drained' : 'full';
  }
}
