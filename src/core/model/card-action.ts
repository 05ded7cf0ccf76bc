import type { ApprovalVerdict } from './approvals/approval';

/**
 * What a person does to one of Summon's cards, or to a thread through the platform's own
 * control, decoded once by the front end that saw it. Each names only record ids (G4: a card's
 * buttons stay valid across restarts); the core checks who may (P8) and answers with the
 * sentence to show the person when it refuses.
 */
export type CardAction =
  /** N7: a person opens or folds a note; only the display changes. */
  | { kind: 'note'; verb: 'open' | 'fold'; messageId: string }
  /** G4: a click on Approve or Deny; E4: or on "Approve for this conversation" (MCP calls). */
  | { kind: 'approval'; verdict: ApprovalVerdict; approvalId: string }
  /** N13: an answer to a question card: an option number (`2`, from 1) or free text. */
  | { kind: 'answer'; questionId: string; answer: string }
  /** P15: Stop on a status card (or the terminal's `/stop`). */
  | { kind: 'stop-run'; runId: string }
  /** P15: a platform's own Stop for a whole thread (Slack's agent-session Stop). */
  | { kind: 'stop-thread'; thread: string };

export type CardActionKind = CardAction['kind'];

/** A refusal carries the sentence to show the person who acted (P5: only to them). */
export type Refusable = { ok: true } | { ok: false; reason: string };

/**
 * What each action answers. N7: opening or folding a note is never refused by a result: a
 * stranger's click or a note that is gone is thrown as an `AppError` (`forbidden`,
 * `not_found`), which each front end tells the person as it tells any failed command.
 * P15: a thread's Stop counts the turns asked to stop; a refusal says how many were running
 * (none: the platform's session can be closed).
 */
export interface CardActionResults {
  note: { ok: true };
  approval: Refusable;
  answer: Refusable;
  'stop-run': Refusable;
  'stop-thread': { ok: true; stopped: number } | { ok: false; reason: string; running: number };
}

export type CardActionResult<A extends CardAction = CardAction> = CardActionResults[A['kind']];
