import type { InboxEntry, InboxOutcome, InboxRecord } from '../model/inbox';
import type { Platform } from '../model/platform';

/**
 * T4: the inbox of inbound events. Not owned by a workspace (it is written before an event is
 * resolved to one): use it in `Store.transaction`.
 */
export interface InboxRepository {
  /**
   * Stores the event once (`INSERT … ON CONFLICT DO NOTHING` on P6's key); an event already in
   * the inbox, or already processed (`processed_inbound_events`), is not stored again.
   * True when this call stored it.
   */
  add(entry: InboxEntry): Promise<boolean>;
  /**
   * The oldest rows not yet routed (up to `limit`) that this transaction may route now, in the
   * order returned, each due: every earlier unrouted row of its thread (and, for a top-level
   * message, of its channel's top level) comes before it in the list. The heads among them
   * (no earlier unrouted row at all) are locked for the rest of the transaction, and heads
   * another transaction holds are skipped (`FOR UPDATE SKIP LOCKED`) with every later row of
   * their thread and channel; the rows after this transaction's heads are no heads while those
   * are unrouted, so no other transaction takes them. Empty when there is none.
   */
  claimRun(platforms: readonly Platform[], now: Date, limit: number): Promise<InboxRecord[]>;
  /**
   * The row was routed (in the transaction that did the routing's work). Sent with the
   * transaction's next statement (T3); a row that is not there fails the transaction.
   */
  markRouted(id: string, outcome: InboxOutcome, at: Date): Promise<void>;
  /**
   * A routing attempt failed: the row is tried again from `retryAt` (its thread waits for it),
   * or, with `retryAt` null, it is given up (`failed`) and its thread moves on.
   */
  recordFailure(id: string, error: string, retryAt: Date | null, at: Date): Promise<void>;
  /** Rows not yet routed. */
  countPending(): Promise<number>;
  /** Deletes rows routed before `before` (their key stays in `processed_inbound_events`). */
  prune(before: Date): Promise<number>;
}
