import { StoreChatDirectory } from '../directory/store-chat-directory';
import type { InboxRecord } from '../model/inbox';
import type { Platform } from '../model/platform';
import type { ReceiveOutcome } from '../ports/chat-engine';
import type { InboundMessage } from '../ports/chat-platform';
import type { Clock } from '../ports/clock';
import type { InboxDecision, InboxDecoder } from '../ports/inbox-decoder';
import type { Logger } from '../ports/logger';
import type { Store, StoreTx } from '../ports/store';
import { admitDirectMessage, type TellInThread } from './direct-message';
import { transactionStore } from './transaction-store';

/** What routing one stored row needs. */
export interface InboxRowDeps<R extends { outcome: ReceiveOutcome }> {
  store: Store;
  clock: Clock;
  logger: Logger;
  /** Routes one message inside the routing transaction (P6, P8, M1–M12, P3). */
  route: (tx: StoreTx, message: InboundMessage) => Promise<R>;
  /**
   * T3: asks the routing's statements of a message routed later in this transaction (`withReads`
   * false: only its event recorded); absent, each row's routing asks its own.
   */
  readAhead?: ((tx: StoreTx, message: InboundMessage, withReads: boolean) => void) | undefined;
  /** What follows the committed routing (refusals told, hints, runs enqueued). */
  after: (message: InboundMessage, routed: R) => Promise<ReceiveOutcome>;
  /** T3: a routing transaction failed: what its routing held for after the commit is let go. */
  rolledBack?: ((tx: StoreTx) => void) | undefined;
  /**
   * P1: tells the sender of a direct message that was not admitted why (no space could be
   * made); absent (a router with no platforms), the reason is only logged.
   */
  tell?: TellInThread | undefined;
}

/** The retries of a row whose routing failed. */
export interface InboxRetries {
  /** Failed routing attempts before a row is given up (`failed`) and its thread moves on. */
  maxAttempts: number;
  /** The first retry's delay; each next one doubles it. */
  retryBaseMs: number;
}

/** A row routed in a transaction not yet committed, and what it was decoded to. */
export interface RoutedRow<R> {
  record: InboxRecord;
  decision: InboxDecision;
  routed: R | null;
}

/**
 * T4, one stored row: decoded, routed and marked in the routing transaction; the work that
 * follows it done after the commit; a failed routing recorded, with its retry.
 */
export class InboxRowRouting<R extends { outcome: ReceiveOutcome }> {
  constructor(
    private readonly deps: InboxRowDeps<R>,
    private readonly retries: InboxRetries,
    private readonly decoders: ReadonlyMap<Platform, InboxDecoder>,
  ) {}

  /**
   * T3, T4: a claimed run's routing statements asked at once, before its first row is decoded
   * (so with that row's lookups: one round trip for the run's reads and event records). Only a
   * thread's first row of the run reads ahead: a later one reads the conversation the earlier one
   * makes. Every row of the run must then be routed in this transaction (its event is recorded).
   */
  readAhead(tx: StoreTx, records: readonly InboxRecord[]): void {
    const readAhead = this.deps.readAhead;
    if (readAhead === undefined) return;
    const threads = new Set<string>();
    for (const record of records) {
      const message = this.preview(record);
      // P6: the event recorded ahead must be the one its routing records.
      if (message === null || message.eventId !== record.eventId) continue;
      readAhead(tx, message, !threads.has(message.thread));
      threads.add(message.thread);
    }
  }

  /** A row the decoder cannot preview (one it cannot read fails in `route`, counted there) reads nothing ahead. */
  private preview(record: InboxRecord): InboundMessage | null {
    try {
      return this.decoders.get(record.platform)?.preview?.(record) ?? null;
    } catch {
      return null;
    }
  }

  async route(tx: StoreTx, record: InboxRecord): Promise<RoutedRow<R>> {
    const now = this.deps.clock.now();
    const decoder = this.decoders.get(record.platform);
    if (decoder === undefined) throw new Error(`No inbox decoder for ${record.platform}.`);
    const store = transactionStore(tx);
    // P1: a direct message's one-person space is made in the routing transaction too.
    const decision = await admitDirectMessage(
      store,
      await decoder.decode(record, new StoreChatDirectory(store)),
      this.deps.tell ?? this.logRefusal,
    );
    if (decision.kind === 'drop') {
      // P6: the event may have been recorded ahead (`readAhead`, from its preview); a dropped
      // event is not a processed one, so its record follows the decision.
      await tx.processedEvents.forgetAhead(record.platform, record.eventId);
      await tx.inbox.markRouted(record.id, 'dropped', now);
      return { record, decision, routed: null };
    }
    const routed = await this.deps.route(tx, decision.message);
    // T4: marked in the transaction that did the routing's work: both commit or neither does.
    await tx.inbox.markRouted(record.id, routed.outcome.kind, now);
    return { record, decision, routed };
  }

  /** After the commit: failures here are logged, never retried (the routing itself stands). */
  async afterCommit({ record, decision, routed }: RoutedRow<R>): Promise<void> {
    const log = this.rowLog(record);
    try {
      if (decision.kind === 'drop') {
        log.debug({ reason: decision.reason }, 'inbound event dropped');
        await decision.afterCommit?.();
        return;
      }
      if (routed === null) return;
      const outcome = await this.deps.after(decision.message, routed);
      await decision.afterCommit?.(outcome);
    } catch (error) {
      log.error({ err: String(error) }, 'work after routing an inbound event failed');
    }
  }

  async recordFailure(record: InboxRecord, error: unknown): Promise<void> {
    const attempts = record.attempts + 1;
    const now = this.deps.clock.now();
    const giveUp = attempts >= this.retries.maxAttempts;
    const retryAt = giveUp ? null : new Date(now.getTime() + this.retries.retryBaseMs * 2 ** (attempts - 1));
    const log = this.rowLog(record);
    if (giveUp) log.error({ attempts, err: String(error) }, 'an inbound event could not be routed; given up');
    else log.warn({ attempts, err: String(error) }, 'routing an inbound event failed; it is tried again');
    try {
      await this.deps.store.transaction((tx) =>
        tx.inbox.recordFailure(record.id, String(error), retryAt, now),
      );
    } catch (recordError) {
      // The row stays unrouted and due: the next poll tries it again.
      log.warn({ err: String(recordError) }, 'the failed routing could not be recorded');
    }
  }

  private rowLog(record: InboxRecord): Logger {
    return this.deps.logger.child({
      component: 'inbox',
      platform: record.platform,
      eventId: record.eventId,
    });
  }

  private readonly logRefusal: TellInThread = async (message, sentence) => {
    this.deps.logger.info(
      { component: 'inbox', platform: message.platform, eventId: message.eventId, reason: sentence },
      'a direct message was not admitted',
    );
  };
}
