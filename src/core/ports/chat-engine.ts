import type { InboundMessage, ThreadId } from './chat-platform';

/** Who clicked or typed, as a platform knows them; the core resolves the member (P8). */
export interface PlatformActor {
  platform: InboundMessage['platform'];
  workspace: InboundMessage['workspace'];
  senderId: string;
}

export type ReceiveOutcome =
  | { kind: 'duplicate' }
  /** P8: unknown account, a role that cannot start work, an unbound channel; the sender was told. */
  | { kind: 'refused'; reason: string }
  | { kind: 'accepted'; conversationId: string; runIds: string[] };

/**
 * What a chat front end calls: the core's side of the platform port. Bots translate a
 * platform event into one of these calls and nothing more.
 */
export interface ChatEngine {
  receive(message: InboundMessage): Promise<ReceiveOutcome>;
  /** N7: a person opens or folds a note; only the display changes. */
  toggleNote(messageId: string, action: 'open' | 'fold', actor: PlatformActor): Promise<void>;
  /** G4: a click on Approve or Deny; refusals carry the sentence to show the clicker. */
  decideApproval(
    approvalId: string,
    verdict: 'approve' | 'deny',
    actor: PlatformActor,
  ): Promise<{ ok: true } | { ok: false; reason: string }>;
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

export type { ThreadId };
