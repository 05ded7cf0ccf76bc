import type { Platform } from '../model/platform';

export type OutboxStatus = 'pending' | 'sending' | 'sent' | 'failed';

/** P7: one outgoing platform call, kept until it was delivered. */
export interface OutboxItem {
  id: string;
  platform: Platform;
  /** Calls of one lane (a thread) are delivered one at a time, in the order they were added. */
  lane: string;
  /** What to do on the platform (post, update, ephemeral…); the platform's sender owns the vocabulary. */
  kind: string;
  payload: unknown;
  status: OutboxStatus;
  attempts: number;
  platformRef: string | null;
}

/** The outbox table, in the system context (a call may be for a channel no workspace owns yet). */
export interface OutboxRepository {
  add(item: Pick<OutboxItem, 'platform' | 'lane' | 'kind' | 'payload'>): Promise<OutboxItem>;
  /** Marks the call as on its way; false when it was not pending (another deliverer took it). */
  markSending(id: string): Promise<boolean>;
  markSent(id: string, platformRef: string | null): Promise<void>;
  /** Back to pending, to be tried again after `availableAt`. */
  markRetry(id: string, availableAt: Date, error: string): Promise<void>;
  markFailed(id: string, error: string): Promise<void>;
  /** Pending and sending calls of a platform, oldest first. */
  unfinished(platform: Platform): Promise<OutboxItem[]>;
}
