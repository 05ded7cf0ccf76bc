import type { Platform } from '../model/platform';
import type { Logger } from '../ports/logger';
import type { Metrics } from '../ports/metrics';
import type { Store } from '../ports/store';
import type { PlatformSender } from './delivery-error';

export interface OutboxDelivererOptions {
  store: Store;
  platform: Platform;
  sender: PlatformSender;
  logger: Logger;
  /** P7: the backlog, retries and 429s of this platform's calls, for `/metrics`. */
  metrics?: Metrics | undefined;
  /** Backoff for 5xx, timeouts and refused connections: base * 2^(attempt-1), capped at `maxMs`. */
  backoff?: Partial<OutboxBackoff>;
  sleep?: (ms: number) => Promise<void>;
  /** The time of day; default the `Clock` port's `systemClock`. */
  now?: () => Date;
  /** P9 (decision): calls on their way past which a sign of life waits (default 16). */
  signOfLifeRoom?: number;
  /** P7, T2, A12: how old a `sending` mark must be for a restart to take its sender for dead (default 5 min). */
  abandonAfterMs?: number;
}

/**
 * P7, T2, A12: a live deliverer holds a call `sending` for one request (Slack's times out after
 * 30 s) or, for a reply it hands over, until its turn's finish commits (seconds); a mark older
 * than this belongs to a process that died. Another worker sending right now is never judged dead.
 */
export const DEFAULT_ABANDON_AFTER_MS = 5 * 60 * 1000;

/**
 * P9 (decision): while this many of a platform's calls are on their way, a turn's sign of life
 * waits; a healthy platform answering a busy process's turns has far fewer.
 */
export const DEFAULT_SIGN_OF_LIFE_ROOM = 16;

/**
 * P7: how an outgoing call the platform cannot take now is tried again. `giveUpMs` bounds the
 * whole wait, counted from the call's first failure: long enough to outlast the platform's
 * outages (`SUMMON_OUTBOX_GIVE_UP_HOURS`), so a thread's calls are never dropped after a minute.
 */
export interface OutboxBackoff {
  baseMs: number;
  maxMs: number;
  giveUpMs: number;
}

export const DEFAULT_OUTBOX_GIVE_UP_MS = 24 * 60 * 60 * 1000;
export const DEFAULT_BACKOFF: OutboxBackoff = {
  baseMs: 500,
  maxMs: 30_000,
  giveUpMs: DEFAULT_OUTBOX_GIVE_UP_MS,
};
/** Delivered and failed calls are kept this long (for looking into a problem), then removed. */
export const OUTBOX_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;
