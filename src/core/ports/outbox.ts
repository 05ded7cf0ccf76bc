import type { Platform } from '../model/platform';

/** Sends one stored call to the platform; returns the platform's ref of what it made (a message ts). */
export interface PlatformSender {
  send(kind: string, payload: unknown): Promise<string | null>;
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
  ): Promise<string | null>;
  /** After a restart: sends what is still pending; never re-sends what may have gone out. */
  resume(): Promise<{ resent: number; abandoned: number; pruned: number }>;
  /** Waits for every call in flight. */
  drain(): Promise<void>;
}

export type OutboxFactory = (platform: Platform, sender: PlatformSender) => Outbox;
