import { RetryingStore } from '../outage/retrying-store';
import { systemClock } from '../ports/clock';
import type { DeliverOptions, Outbox, RecordSent, SentCall, StoreCalls } from '../ports/outbox';
import type { OutboxItem } from '../ports/outbox-store';
import type { Store } from '../ports/store';
import { AbandonedCalls } from './abandoned-calls';
import { CallTaker, TAKEN_CALL_LOOK_MAX_MS, type Taken } from './call-taker';
import { CallsOnTheirWay } from './calls-on-their-way';
import { DeliveryError, DeliveryStopped } from './delivery-error';
import { KeyedSerialQueue } from './keyed-serial-queue';
import {
  DEFAULT_ABANDON_AFTER_MS,
  DEFAULT_BACKOFF,
  DEFAULT_SIGN_OF_LIFE_ROOM,
  OUTBOX_RETENTION_MS,
  type OutboxBackoff,
  type OutboxDelivererOptions,
} from './outbox-options';
import { OutboxRows } from './outbox-rows';
import { OutboxStop } from './outbox-stop';
import { type HeldCall, SentMarks } from './sent-marks';

export {
  DEFAULT_OUTBOX_GIVE_UP_MS,
  OUTBOX_RETENTION_MS,
  type OutboxBackoff,
  type OutboxDelivererOptions,
} from './outbox-options';

/** A call to deliver: stored (an outbox row), or, for a channel no workspace owns, kept in memory only. */
type Delivery = Omit<OutboxItem, 'id' | 'workspaceId'> & { id: string | null };

/** A stored call this deliverer marked `sending`: its row and the version that mark wrote; null in memory. */
type Held = HeldCall | null;

/** A stored call of `deliverStored` that went out, its mark handed to the caller (`RecordSent`). */
type Went = { held: HeldCall; ref: string | null };

/**
 * P7: every outgoing platform call is stored first, then sent. A 429 waits the platform's
 * Retry-After, a 5xx, a timeout or a refused connection is retried with capped backoff until
 * the platform answers again (for hours: `giveUpMs`), a final refusal is final at once, calls of
 * one thread go one at a time in the order they were stored, and a call that may have reached the platform is never
 * sent again: after a restart, calls still pending are sent, calls caught mid-send are marked
 * failed rather than risk a double post.
 */
export class OutboxDeliverer implements Outbox {
  private readonly lanes = new KeyedSerialQueue();
  private readonly backoff: OutboxBackoff;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly now: () => Date;
  /** P9 (decision): a sign of life (`withdrawn`) waits for room among them, withdrawn if its turn ends first. */
  private readonly onTheirWay: CallsOnTheirWay;

  /** T2: the calls' rows are written through a database outage of seconds, not given up. */
  private readonly store: Store;
  /** T2: the calls' rows, read back where a COMMIT's outcome is unknown. */
  private readonly rows: OutboxRows;
  /** T3: calls of any thread that went out at the same time are recorded as sent in one commit. */
  private readonly sent: SentMarks;
  /** P7, T2, A12: calls left `sending` by a process that died. */
  private readonly abandoned: AbandonedCalls;
  /** P7, T2, A12: marks calls `sending`, or waits for the outcome of one another deliverer took. */
  private readonly taker: CallTaker;
  /** P7, T2: once stopping, no call waits to be tried again (`stop`). */
  private readonly stopping = new OutboxStop();

  constructor(private readonly options: OutboxDelivererOptions) {
    this.store = RetryingStore.over(options.store);
    this.rows = new OutboxRows(this.store);
    this.backoff = { ...DEFAULT_BACKOFF, ...options.backoff };
    const sleep = options.sleep ?? ((ms: number) => this.stopping.timer(ms));
    this.sleep = (ms) => this.stopping.pause(sleep, ms);
    this.now = options.now ?? (() => systemClock.now());
    this.onTheirWay = new CallsOnTheirWay(options.signOfLifeRoom ?? DEFAULT_SIGN_OF_LIFE_ROOM);
    this.sent = new SentMarks(this.store, (id) => this.rows.stateOf(id));
    const abandonAfterMs = options.abandonAfterMs ?? DEFAULT_ABANDON_AFTER_MS;
    this.abandoned = new AbandonedCalls(this.store, options.platform, options.logger, abandonAfterMs);
    this.taker = new CallTaker({
      store: this.store,
      stateOf: (id) => this.rows.stateOf(id),
      abandoned: this.abandoned,
      abandonAfterMs,
      now: () => this.now().getTime(),
      sleep: this.sleep,
      firstLookMs: this.backoff.baseMs,
      maxLookMs: Math.min(this.backoff.maxMs, TAKEN_CALL_LOOK_MAX_MS),
    });
  }

  /**
   * Stores the call and resolves with the platform's ref once it was delivered. A call into a
   * channel no workspace owns (a refusal where Summon is not linked) has no row to live in: it
   * is sent with the same retries and order, but does not survive a restart.
   */
  async deliver(
    target: { workspaceId: string | null; lane: string },
    kind: string,
    payload: unknown,
    options: DeliverOptions = {},
  ): Promise<string | null> {
    const { platform } = this.options;
    const { workspaceId, lane } = target;
    // Stored inside the lane's turn, so the row order (what a restart resumes) is the call order.
    const stored = async (): Promise<Delivery> =>
      workspaceId === null
        ? { id: null, platform, lane, kind, payload, status: 'pending', attempts: 0, platformRef: null }
        : await this.rows.add({ workspaceId, platform, lane, kind, payload });
    return this.enqueue(lane, stored, options.withdrawn);
  }

  async deliverStored(
    target: { workspaceId: string; lane: string },
    calls: readonly { kind: string; payload: unknown }[],
    store: StoreCalls,
    recordSent?: RecordSent,
  ): Promise<(string | null)[]> {
    const { platform, metrics } = this.options;
    const { workspaceId, lane } = target;
    for (const _ of calls) metrics?.outboxBacklog(platform, 1);
    try {
      return await this.lanes.run(lane, () =>
        this.onTheirWay.carry(async () => {
          const held: { item: OutboxItem; version: string }[] = [];
          // Issued together, in order: the caller's transaction sends them as one message in that
          // order (`seq`), T3: its last, with its COMMIT when it asks for that.
          await store(async (tx) => {
            held.push(
              ...(await Promise.all(
                calls.map((call) => tx.outbox.addSending({ workspaceId, platform, lane, ...call })),
              )),
            );
          });
          const refs: (string | null)[] = [];
          const went: Went[] = [];
          const handOver = recordSent === undefined ? undefined : went;
          try {
            for (const { item, version } of held)
              refs.push(await this.send(item, { id: item.id, version }, handOver));
          } catch (error) {
            // The caller records nothing of a delivery that failed: those that went out are marked here.
            await Promise.all(went.map((call) => this.markSent(call.held, call.ref)));
            // P7, T2: stopped part-way, the calls not tried yet are handed back for the next start.
            if (error instanceof DeliveryStopped)
              for (const { item, version } of held.slice(refs.length + 1))
                await this.handBack({ id: item.id, version });
            throw error;
          }
          recordSent?.(went.map((call): SentCall => ({ id: call.held.id, ref: call.ref })));
          return refs;
        }),
      );
    } finally {
      for (const _ of calls) metrics?.outboxBacklog(platform, -1);
    }
  }

  /**
   * After a restart: sends what is still pending, in order; never re-sends what may have gone
   * out. P7, T2, A12: fails only the `sending` calls whose sender died (`AbandonedCalls`), never
   * one another live worker is sending right now.
   */
  async resume(): Promise<{ resent: number; abandoned: number; pruned: number }> {
    const { store } = this;
    const { platform, logger } = this.options;
    const cutoff = new Date(this.now().getTime() - OUTBOX_RETENTION_MS);
    const pruned = await store.transaction((tx) => tx.outbox.pruneFinished(platform, cutoff));
    const abandoned = await this.abandoned.failNow();
    const items = await store.transaction((tx) => tx.outbox.unfinished(platform));
    const pending = items.filter((item) => item.status === 'pending');
    for (const item of pending) {
      this.enqueue(item.lane, async () => item).catch((error: unknown) => {
        if (error instanceof DeliveryStopped) return;
        logger.warn({ outboxId: item.id, err: String(error) }, 'a resumed outgoing call failed');
      });
    }
    if (pending.length < items.length) this.abandoned.lookAgainLater();
    return { resent: pending.length, abandoned, pruned };
  }

  /** Waits for every call in flight, retries included. */
  drain(): Promise<void> {
    return this.lanes.drain();
  }

  /**
   * P7, T2: the stop (SIGTERM). Every call is still tried, so the turns that finish during the
   * stop still post, but none waits to be tried again: one the platform could not take stays
   * stored `pending` for the next start (`resume`) and its caller gets `DeliveryStopped`, so an
   * outage of the platform never holds up a stop. Stops looking for calls of stopped processes;
   * resolves once no call is on its way.
   */
  stop(): Promise<void> {
    this.stopping.begin();
    this.abandoned.stop();
    return this.lanes.drain();
  }

  /** Takes the lane's next turn now, synchronously: calls keep the order they were made in. */
  private enqueue(lane: string, item: () => Promise<Delivery>, sign?: AbortSignal): Promise<string | null> {
    const { metrics, platform } = this.options;
    metrics?.outboxBacklog(platform, 1);
    return this.lanes
      .run(lane, () => this.onTheirWay.carry(async () => this.send(await item()), sign))
      .finally(() => metrics?.outboxBacklog(platform, -1));
  }

  /**
   * P7: marks a stored call `sending` before it goes out; one another deliverer took meanwhile
   * (a worker's `resume`) is waited for, its outcome this delivery's (`CallTaker`).
   */
  private take(item: Delivery): Promise<Taken | { held: null }> {
    return item.id === null ? Promise.resolve({ held: null }) : this.taker.take(item.id);
  }

  /** P7: records a call this deliverer holds as sent; failing to is logged, never a reason to send again. */
  private async markSent(held: Held, ref: string | null): Promise<void> {
    if (held === null) return;
    await this.sent
      .mark(held, ref)
      .catch((error: unknown) =>
        this.options.logger.warn(
          { outboxId: held.id, err: error },
          'delivered, but could not be recorded as sent',
        ),
      );
  }

  private leftAtStop(item: Delivery, attempts: number): void {
    const { logger } = this.options;
    if (item.id === null)
      logger.warn({ kind: item.kind }, 'an outgoing call kept in memory only was dropped at the stop');
    else
      logger.info({ outboxId: item.id, kind: item.kind, attempts }, 'outgoing call left for the next start');
  }

  /** P7, T2: a call this deliverer marked `sending` and did not try, back to `pending` for the next start. */
  private handBack(held: Held): Promise<void> {
    return this.rows.change(held, (o, id) =>
      o.markRetry(id, this.now(), 'Summon stopped before sending it.'),
    );
  }

  /** `marked`: the call's row was stored already marked `sending` (`deliverStored`); `handOver`: see `RecordSent`. */
  private async send(item: Delivery, marked?: Held, handOver?: Went[]): Promise<string | null> {
    const { sender, logger } = this.options;
    // Named only when there is something to say: a delivery that goes out logs nothing.
    const log = () => logger.child({ outboxId: item.id, kind: item.kind });
    const taken = marked === undefined ? await this.take(item) : { held: marked };
    if ('sentElsewhere' in taken) return taken.sentElsewhere;
    let held = taken.held;
    let attempts = item.attempts;
    let failingSince: number | null = null;
    for (;;) {
      let ref: string | null;
      try {
        ref = await sender.send(item.kind, item.payload);
      } catch (error) {
        attempts += 1;
        const advice = error instanceof DeliveryError ? error.retry : ({ kind: 'never' } as const);
        const reason = error instanceof Error ? error.message : String(error);
        failingSince ??= this.now().getTime();
        const failingFor = this.now().getTime() - failingSince;
        if (advice.kind === 'never' || failingFor >= this.backoff.giveUpMs) {
          await this.rows.change(held, (o, id) => o.markFailed(id, reason));
          log().warn({ attempts, failingForMs: failingFor, reason }, 'outgoing call failed');
          throw error;
        }
        const wait =
          advice.kind === 'after'
            ? advice.ms
            : Math.min(this.backoff.maxMs, this.backoff.baseMs * 2 ** (attempts - 1));
        log().info({ attempts, waitMs: wait, reason }, 'outgoing call will be retried');
        this.options.metrics?.outboxRetry(this.options.platform, advice.kind === 'after');
        const availableAt = new Date(this.now().getTime() + wait);
        await this.rows.change(held, (o, id) => o.markRetry(id, availableAt, reason));
        // P7, T2: a stop ends the wait; the call stays `pending`, for the next start.
        await this.sleep(wait).catch((error: unknown) => {
          if (error instanceof DeliveryStopped) this.leftAtStop(item, attempts);
          throw error;
        });
        // P7: a call waiting to be retried is `pending`: another worker's `resume` may send it.
        const again = await this.take(item);
        if ('sentElsewhere' in again) return again.sentElsewhere;
        held = again.held;
        continue;
      }
      // P7, T2: it went out. Recording that waits out a database outage (the store retries, and
      // a COMMIT whose outcome is unknown is read back); failing to record it is never a reason
      // to send it again: the row stays `sending`, which a restart marks failed rather than
      // post twice.
      if (handOver !== undefined && held !== null) handOver.push({ held, ref });
      else await this.markSent(held, ref);
      return ref;
    }
  }
}
