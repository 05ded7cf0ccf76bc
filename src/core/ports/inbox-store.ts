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
   * Locks, for the rest of this transaction, the oldest rows (up to `limit`, oldest first) not
   * yet routed that each head their thread (no earlier row of that thread is still unrouted;
   * for a top-level message, none of its channel's earlier top-level messages either) and are
   * due; rows another transaction holds are skipped (`FOR UPDATE SKIP LOCKED`). No two of them
   * share a thread or a channel's top level. Empty when there is none.
   */
  claimHeads(platforms: readonly Platform[], now: Date, limit: number): Promise<InboxRecord[]>;
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
