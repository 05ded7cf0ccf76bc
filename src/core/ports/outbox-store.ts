import type { Platform } from '../model/platform';

export type OutboxStatus = 'pending' | 'sending' | 'sent' | 'failed';

/** P7: one outgoing platform call, kept until it was delivered. */
export interface OutboxItem {
  id: string;
  /** The workspace that owns the channel (A2: the row goes with the workspace). */
  workspaceId: string;
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

/** T2: a call's row as it is now, read back after a write whose COMMIT's outcome is unknown. */
export interface OutboxRowState {
  status: OutboxStatus;
  /** Changes with every write of the row: the one `markSending` returned names that very mark. */
  version: string;
  /** P7: once sent, the platform's ref of what it made (what its deliverer resolved with). */
  platformRef: string | null;
  /** P7: once failed, why (the failure its deliverer rejected with). */
  lastError: string | null;
}

/** The outbox table, used in the system context (resuming reads every workspace's calls). */
export interface OutboxRepository {
  add(item: Pick<OutboxItem, 'workspaceId' | 'platform' | 'lane' | 'kind' | 'payload'>): Promise<OutboxItem>;
  /** P7: adds a call already marked as on its way (`deliverStored`); the row's version under that mark. */
  addSending(
    item: Pick<OutboxItem, 'workspaceId' | 'platform' | 'lane' | 'kind' | 'payload'>,
  ): Promise<{ item: OutboxItem; version: string }>;
  /**
   * Marks the call as on its way; the row's version under this mark, or null when it was not
   * pending (another deliverer took it).
   */
  markSending(id: string): Promise<string | null>;
  /** T2: the row's status, version and outcome; null when there is none (an `add` that was not stored). */
  state(id: string): Promise<OutboxRowState | null>;
  markSent(id: string, platformRef: string | null): Promise<void>;
  /** Back to pending, to be tried again after `availableAt`. */
  markRetry(id: string, availableAt: Date, error: string): Promise<void>;
  markFailed(id: string, error: string): Promise<void>;
  /**
   * P7, T2, A12: fails a platform's calls marked `sending` more than `silentForMs` ago (by the
   * database's clock): their sender died mid-send, and sending them again could post twice.
   * Returns how many.
   */
  failAbandoned(platform: Platform, silentForMs: number, error: string): Promise<number>;
  /** Deletes a platform's delivered and failed calls created before `before`; returns how many. */
  pruneFinished(platform: Platform, before: Date): Promise<number>;
  /** Pending and sending calls of a platform, oldest first. */
  unfinished(platform: Platform): Promise<OutboxItem[]>;
}
