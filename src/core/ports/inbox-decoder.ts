import type { InboxRecord } from '../model/inbox';
import type { BindablePlatform } from '../model/platform';
import type { ChatDirectory } from './chat-directory';
import type { InboundMessage } from './chat-platform';
import type { ReceiveOutcome } from './receive-outcome';

/**
 * P1: a message a person sent the bot directly, as the front end read it: the core routes it in
 * the one-person space of that person (made on a member's first message), or tells them why not.
 */
export interface DirectMessageOrigin {
  platform: BindablePlatform;
  /** The Slack team / Discord guild whose workspace the person is a member of. */
  teamId: string;
  /** The direct-message channel. */
  channelId: string;
  /** The person's user id on the platform. */
  userId: string;
}

/** What a stored event turns out to be, once its front end reads it back. */
export type InboxDecision =
  | {
      kind: 'route';
      message: InboundMessage;
      /** P1: a direct message: the core finds or makes its one-person space before routing it. */
      direct?: DirectMessageOrigin;
      /** Platform work once the routing committed (never for a rolled-back one). */
      afterCommit?: (outcome: ReceiveOutcome) => Promise<void>;
    }
  /** Not a message the core routes (an unbound channel, a stranger's direct message). */
  | { kind: 'drop'; reason: string; afterCommit?: () => Promise<void> };

/**
 * T4: a front end's reading of its own inbox rows. Its lookups (member nicknames for mentions,
 * whether a channel is bound) happen here, after the ack, inside the routing transaction, so
 * the ack waits for one durable write only.
 */
export interface InboxDecoder {
  /**
   * `directory` reads (and moves cursors) in the routing transaction itself: what it writes
   * commits or rolls back with the routing.
   */
  decode(record: InboxRecord, directory: ChatDirectory): Promise<InboxDecision>;
  /**
   * T3: the message `decode` will most likely make of the row, from the stored event alone (no
   * lookup): routing asks its reads ahead, with the decoder's own, in one round trip. Null (or
   * absent) when it cannot tell, or when the row is often dropped: its event would be recorded
   * as processed for nothing.
   */
  preview?(record: InboxRecord): InboundMessage | null;
}
