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
