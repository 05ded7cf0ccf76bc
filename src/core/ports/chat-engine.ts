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
}

/**
 * What a chat front end calls: the core's side of the platform port. Bots translate a
 * platform event into one of these calls and nothing more.
 */
/** T4: whether `ingest` stored the event (false: a duplicate of one stored or processed before). */
export interface IngestOutcome {
  stored: boolean;
}

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
  /** N7: a person opens or folds a note; only the display changes. */
  toggleNote(messageId: string, action: 'open' | 'fold', actor: PlatformActor): Promise<void>;
  /** G4: a click on Approve or Deny; refusals carry the sentence to show the clicker. */
  decideApproval(
    approvalId: string,
    verdict: 'approve' | 'deny',
    actor: PlatformActor,
  ): Promise<{ ok: true } | { ok: false; reason: string }>;
  /**
   * P15: a click on a status card's Stop (or `/stop`): allowed to the person who started the
   * turn and to owners, admins and approvers; refusals carry the sentence to show the clicker.
   */
  stopRun(runId: string, actor: PlatformActor): Promise<{ ok: true } | { ok: false; reason: string }>;
  /**
   * P15: a platform's own Stop for a thread (Slack's agent-session Stop): every turn running in
   * the thread, under the same rule as `stopRun`. `stopped` counts the turns asked to stop;
   * a refusal (or nothing running) carries the sentence to show the person.
   */
  stopThread(
    thread: ThreadId,
    actor: PlatformActor,
  ): Promise<{ ok: true; stopped: number } | { ok: false; reason: string; running: number }>;
  /**
   * N13: a person answers a question card: an option number (`2`, from 1) or free text.
   * Refusals (not a member, already answered, no such option) carry the sentence to show.
   */
  answerQuestion(
    questionId: string,
    answer: string,
    actor: PlatformActor,
  ): Promise<{ ok: true } | { ok: false; reason: string }>;
}

/** T4: the engine a front end is started with: it has an inbox (`ingest`, `routeInboxWith`). */
export type InboxChatEngine = ChatEngine & Required<Pick<ChatEngine, 'ingest' | 'routeInboxWith'>>;

export type { ThreadId };
