import type { Platform } from '../model/platform';
import { RetryingStore } from '../outage/retrying-store';
import { systemClock } from '../ports/clock';
import type { Logger } from '../ports/logger';
import type { Metrics } from '../ports/metrics';
import type { Outbox } from '../ports/outbox';
import type { OutboxItem, OutboxRepository } from '../ports/outbox-store';
import type { Store } from '../ports/store';
import { DeliveryError, type PlatformSender } from './delivery-error';
import { KeyedSerialQueue } from './keyed-serial-queue';

export interface OutboxDelivererOptions {
  store: Store;
  platform: Platform;
  sender: PlatformSender;
  logger: Logger;
  /** P7: the backlog, retries and 429s of this platform's calls, for `/metrics`. */
  metrics?: Metrics | undefined;
  /** Backoff for 5xx and network errors: base * 2^(attempt-1), capped. */
  backoff?: { baseMs: number; maxMs: number; maxAttempts: number };
  sleep?: (ms: number) => Promise<void>;
  /** The time of day; default the `Clock` port's `systemClock`. */
  now?: () => Date;
}

const DEFAULT_BACKOFF = { baseMs: 500, maxMs: 30_000, maxAttempts: 8 };
/** Delivered and failed calls are kept this long (for looking into a problem), then removed. */
export const OUTBOX_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;

/** A call to deliver: stored (an outbox row), or, for a channel no workspace owns, kept in memory only. */
type Delivery = Omit<OutboxItem, 'id' | 'workspaceId'> & { id: string | null };

/**
 * P7: every outgoing platform call is stored first, then sent. A 429 waits the platform's
 * Retry-After, a 5xx or network error is retried with backoff, calls of one thread go one at a
 * time in the order they were stored, and a call that may have reached the platform is never
 * sent again: after a restart, calls still pending are sent, calls caught mid-send are marked
 * failed rather than risk a double post.
 */
export class OutboxDeliverer implements Outbox {
  private readonly lanes = new KeyedSerialQueue();
  private readonly backoff: { baseMs: number; maxMs: number; maxAttempts: number };
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly now: () => Date;

  /** T2: the calls' rows are written through a database outage of seconds, not given up. */
  private readonly store: Store;

  constructor(private readonly options: OutboxDelivererOptions) {
    this.store = RetryingStore.over(options.store);
    this.backoff = options.backoff ?? DEFAULT_BACKOFF;
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.now = options.now ?? (() => systemClock.now());
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
  ): Promise<string | null> {
    const { store } = this;
    const { platform } = this.options;
    const { workspaceId, lane } = target;
    // Stored inside the lane's turn, so the row order (what a restart resumes) is the call order.
    return this.enqueue(lane, async () =>
      workspaceId === null
        ? { id: null, platform, lane, kind, payload, status: 'pending', attempts: 0, platformRef: null }
        : await store.transaction((tx) => tx.outbox.add({ workspaceId, platform, lane, kind, payload })),
    );
  }

  /** After a restart: sends what is still pending, in order; never re-sends what may have gone out. */
  async resume(): Promise<{ resent: number; abandoned: number; pruned: number }> {
    const { store } = this;
    const { platform, logger } = this.options;
    const cutoff = new Date(this.now().getTime() - OUTBOX_RETENTION_MS);
    const pruned = await store.transaction((tx) => tx.outbox.pruneFinished(platform, cutoff));
    const items = await store.transaction((tx) => tx.outbox.unfinished(platform));
    let abandoned = 0;
    for (const item of items) {
      if (item.status === 'sending') {
        abandoned += 1;
        await store.transaction((tx) =>
          tx.outbox.markFailed(
            item.id,
            'interrupted while sending: not sent again, so it is never posted twice',
          ),
        );
        continue;
      }
      this.enqueue(item.lane, async () => item).catch((error: unknown) =>
        logger.warn({ outboxId: item.id, err: String(error) }, 'a resumed outgoing call failed'),
      );
    }
    return { resent: items.length - abandoned, abandoned, pruned };
  }

  /** Waits for every call in flight. */
  drain(): Promise<void> {
    return this.lanes.drain();
  }

  /** Takes the lane's next turn now, synchronously: calls keep the order they were made in. */
  private enqueue(lane: string, item: () => Promise<Delivery>): Promise<string | null> {
    const { metrics, platform } = this.options;
    metrics?.outboxBacklog(platform, 1);
    return this.lanes
      .run(lane, async () => this.send(await item()))
      .finally(() => metrics?.outboxBacklog(platform, -1));
  }

  /** Runs a state change of a stored call; an in-memory call has none to record. */
  private mark<T>(item: Delivery, change: (outbox: OutboxRepository, id: string) => Promise<T>, none: T) {
    const { id } = item;
    if (id === null) return Promise.resolve(none);
    return this.store.transaction((tx) => change(tx.outbox, id));
  }

  private async send(item: Delivery): Promise<string | null> {
    const { sender, logger } = this.options;
    const log = logger.child({ outboxId: item.id, kind: item.kind });
    if (!(await this.mark(item, (o, id) => o.markSending(id), true))) {
      throw new DeliveryError('This outgoing call was already taken by another deliverer.', {
        kind: 'never',
      });
    }
    let attempts = item.attempts;
    for (;;) {
      let ref: string | null;
      try {
        ref = await sender.send(item.kind, item.payload);
      } catch (error) {
        attempts += 1;
        const advice = error instanceof DeliveryError ? error.retry : ({ kind: 'never' } as const);
        const reason = error instanceof Error ? error.message : String(error);
        if (advice.kind === 'never' || attempts >= this.backoff.maxAttempts) {
          await this.mark(item, (o, id) => o.markFailed(id, reason), undefined);
          log.warn({ attempts, reason }, 'outgoing call failed');
          throw error;
        }
        const wait =
          advice.kind === 'after'
            ? advice.ms
            : Math.min(this.backoff.maxMs, this.backoff.baseMs * 2 ** (attempts - 1));
        log.info({ attempts, waitMs: wait, reason }, 'outgoing call will be retried');
        this.options.metrics?.outboxRetry(this.options.platform, advice.kind === 'after');
        const availableAt = new Date(this.now().getTime() + wait);
        await this.mark(item, (o, id) => o.markRetry(id, availableAt, reason), undefined);
        await this.sleep(wait);
        if (!(await this.mark(item, (o, id) => o.markSending(id), true))) {
          throw new DeliveryError('This outgoing call was taken by another deliverer.', { kind: 'never' });
        }
        continue;
      }
      // P7, T2: it went out. Recording that waits out a database outage (the store retries);
      // failing to record it is never a reason to send it again: the row stays `sending`, which
      // a restart marks failed rather than post twice.
      await this.mark(item, (o, id) => o.markSent(id, ref), undefined).catch((error: unknown) =>
        log.warn({ err: error }, 'delivered, but could not be recorded as sent'),
      );
      return ref;
    }
  }
}
