import type { Platform } from './platform';

/** T4: how a stored inbound event ended once routed (`failed`: it could not be routed at all). */
export const INBOX_OUTCOMES = ['accepted', 'duplicate', 'refused', 'dropped', 'failed'] as const;
export type InboxOutcome = (typeof INBOX_OUTCOMES)[number];

/** T4: an inbound event as a front end hands it over, before anything about it is resolved. */
export interface InboxEntry {
  platform: Platform;
  /** P6: the de-duplication key, the same id `processed_inbound_events` records. */
  eventId: string;
  /**
   * The thread the event belongs to, as the front end names it: events with the same key are
   * routed one after another, in the order they were stored.
   */
  threadKey: string;
  /**
   * A top-level message's channel, as the front end names it (null for a reply in a thread):
   * top-level messages of one channel are routed in order too, since each may change the space
   * the next is routed in (M2: a mention adds a participant).
   */
  channelKey: string | null;
  /** The front end's own record of the event (plain JSON), decoded by its `InboxDecoder`. */
  payload: unknown;
  receivedAt: Date;
}

/** A stored inbox row, claimed for routing. */
export interface InboxRecord extends InboxEntry {
  id: string;
  /** Routing attempts that failed so far. */
  attempts: number;
}
