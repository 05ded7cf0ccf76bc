import type { Platform } from '../model/platform';
import type { OutboxRepository } from './outbox-store';

/**
 * P7, T2: stores outgoing calls in the caller's transaction: `write` adds their rows there, with
 * what the caller records (a turn's reply: the message and its calls, one commit).
 */
export type StoreCalls = (write: (tx: { outbox: OutboxRepository }) => Promise<void>) => Promise<void>;

/** P7: a stored call that went out, and the platform's ref of what it made. */
export interface SentCall {
  id: string;
  ref: string | null;
}

/**
 * P7, T3: takes the calls of `deliverStored` that went out, for the caller to record as sent
 * (`OutboxRepository.markSent`) in its next commit (a turn's finish) instead of one of their own.
 * Until then their rows stay `sending`: never sent again, even after a restart.
 */
export type RecordSent = (sent: readonly SentCall[]) => void;

/** Sends one stored call to the platform; returns the platform's ref of what it made (a message ts). */
export interface PlatformSender {
  send(kind: string, payload: unknown): Promise<string | null>;
}

/** How one call is delivered. */
export interface DeliverOptions {
  /**
   * P7, P9 (decision): the call is a turn's sign of life: while the platform's calls are backed
   * up it waits for room, and once this aborts (its turn ended) before it went on its way it is
   * withdrawn: never stored nor sent, the delivery rejects with `CallWithdrawn`.
   */
  withdrawn?: AbortSignal | undefined;
}

/**
 * P7: a platform's outgoing calls, stored first, then sent (the core's `OutboxDeliverer`).
 * A front end builds its `PlatformSender` and gets its outbox from the `OutboxFactory` that
 * `src/app` hands it.
 */
export interface Outbox {
  /** Stores the call (for a workspace; `null`: kept in memory) and resolves with the platform's ref once sent. */
  deliver(
    target: { workspaceId: string | null; lane: string },
    kind: string,
    payload: unknown,
    options?: DeliverOptions,
  ): Promise<string | null>;
  /**
   * P7, T2: `calls`, one after another in the lane, their rows written by `store` already
   * marked as on their way (the lane is this deliverer's and they are sent as soon as that
   * commits, as a mark of their own would be); resolves with their refs once sent. Nothing is
   * sent when `store` fails. With `recordSent`, the caller records them as sent once all went
   * out; a delivery that fails records those that went out itself.
   */
  deliverStored?(
    target: { workspaceId: string; lane: string },
    calls: readonly { kind: string; payload: unknown }[],
    store: StoreCalls,
    recordSent?: RecordSent,
  ): Promise<(string | null)[]>;
  /** After a restart: sends what is still pending; never re-sends what may have gone out. */
  resume(): Promise<{ resent: number; abandoned: number; pruned: number }>;
  /** Waits for every call in flight, retries included. */
  drain(): Promise<void>;
  /**
   * P7, T2: the stop. Calls are still tried, once; one the platform could not take stays stored
   * for the next start instead of waiting to be retried, its caller rejected with `delivery_stopped`.
   */
  stop(): Promise<void>;
}

export type OutboxFactory = (platform: Platform, sender: PlatformSender) => Outbox;
