import { AppError } from '../errors';

/** How a failed platform call may be tried again (P7). */
export type RetryAdvice =
  /** 429: the platform said when (Retry-After). */
  | { kind: 'after'; ms: number }
  /** 5xx, a network error: try again with backoff. */
  | { kind: 'backoff' }
  /** The platform refused the call itself (unknown channel, bad token…): trying again cannot help. */
  | { kind: 'never' };

/** What a platform sender throws when a call did not go through. */
export class DeliveryError extends AppError {
  constructor(
    message: string,
    readonly retry: RetryAdvice,
    options: { cause?: unknown } = {},
  ) {
    super(message, 'delivery_failed', options);
  }
}

export type { PlatformSender } from '../ports/outbox';

/**
 * P7, P9 (decision): a turn's sign of life (its card's first post, its session's first status)
 * that had not gone out when the turn ended, because the platform's calls were backed up: it
 * was never stored nor sent, and what it would have shown is shown by the turn's end instead.
 */
export class CallWithdrawn extends AppError {
  constructor() {
    super('A sign of life not sent: its turn ended while the platform was backed up.', 'call_withdrawn');
  }
}

/**
 * P7, T2: the deliverer stopped (SIGTERM) while this call waited to be tried again, or before it
 * was tried. It stays stored `pending` and the next process to start sends it (`resume`); an
 * outage of the platform never holds up a stop. A call in memory only (no workspace owns its
 * channel) is not kept.
 */
export class DeliveryStopped extends AppError {
  constructor() {
    super(
      'Summon is stopping: this outgoing call is kept and sent when Summon starts again.',
      'delivery_stopped',
    );
  }
}
