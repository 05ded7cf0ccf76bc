import type { CardAction, CardActionResult } from '../model/card-action';
import type { InboxEntry } from '../model/inbox';
import type { Platform } from '../model/platform';
import type { InboundMessage, ThreadId } from './chat-platform';
import type { InboxDecoder } from './inbox-decoder';
import type { ReceiveOutcome } from './receive-outcome';

export type { ReceiveOutcome };

/** Who clicked or typed, as a platform knows them; the core resolves the member (P8). */
export interface PlatformActor {
  platform: InboundMessage['platform'];
  workspace: InboundMessage['workspace'];
  senderId: string;
  /** O5: acted from the web console, not the platform: the card names where (`… in the console`). */
  via?: 'console';
}

/** T4: whether `ingest` stored the event (false: a duplicate of one stored or processed before). */
export interface IngestOutcome {
  stored: boolean;
}

/**
 * What a chat front end calls: the core's side of the platform port. Bots translate a
 * platform event into one of these calls and nothing more.
 */
export interface ChatEngine {
  receive(message: InboundMessage): Promise<ReceiveOutcome>;
  /**
   * T4: stores an inbound event once (P6's key) and resolves: the front end acknowledges then.
   * Routing follows from the inbox, through the decoder `routeInboxWith` registered for its
   * platform. Engines without an inbox leave both out (`withDirectInbox` then decodes each
   * event and calls `receive` at once).
   */
  ingest?(entry: InboxEntry): Promise<IngestOutcome>;
  /** T4: how a platform's stored events are read back; its rows are routed from now on. */
  routeInboxWith?(platform: Platform, decoder: InboxDecoder): void;
  /**
   * A person's action on a card or a thread, decoded once by the front end (N7 notes, G4
   * approvals, N13 answers, P15 Stop): the core checks who may; a refusal carries the sentence
   * to show the person (P5: only to them).
   */
  act<A extends CardAction>(action: A, actor: PlatformActor): Promise<CardActionResult<A>>;
}

/** T4: the engine a front end is started with: it has an inbox (`ingest`, `routeInboxWith`). */
export type InboxChatEngine = ChatEngine & Required<Pick<ChatEngine, 'ingest' | 'routeInboxWith'>>;

export type { CardAction, CardActionResult, ThreadId };
