import type { InboxRecord } from '../model/inbox';
import type { InboundMessage } from './chat-platform';
import type { ReceiveOutcome } from './receive-outcome';
import type { Store } from './store';

/** What a stored event turns out to be, once its front end reads it back. */
export type InboxDecision =
  | {
      kind: 'route';
      message: InboundMessage;
      /** Platform work once the routing committed (never for a rolled-back one). */
      afterCommit?: (outcome: ReceiveOutcome) => Promise<void>;
    }
  /** Not a message the core routes (an unbound channel, a stranger's direct message). */
  | { kind: 'drop'; reason: string; afterCommit?: () => Promise<void> };

/**
 * T4: a front end's reading of its own inbox rows: the lookups it used to do before the ack
 * (member nicknames for mentions, a direct message's space, whether a channel is bound) now
 * happen here, after the ack, inside the routing transaction.
 */
export interface InboxDecoder {
  /**
   * `store` is the routing transaction itself: its `transaction` calls run in it (so what they
   * write commits or rolls back with the routing).
   */
  decode(record: InboxRecord, store: Store): Promise<InboxDecision>;
}
