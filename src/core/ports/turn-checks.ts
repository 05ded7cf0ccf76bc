import type { Platform } from '../model/platform';
import type { ApprovalCard, StatusCard, ThreadId } from './chat-platform';

/** P21: the turn a check shows: its run, its agent, and the conversation it answers in. */
export interface CheckedTurn {
  runId: string;
  agent: string;
  platform: Platform;
  thread: ThreadId;
}

/** P21: how a turn ended, as its check shows it. */
export type TurnCheckEnd =
  | { outcome: 'success'; reply: string }
  | { outcome: 'failure'; error: string }
  /** P15: a person's Stop (`by` is the card's sentence: "Stopped by dana"). */
  | { outcome: 'stopped'; by: string };

/** P21: a commit the turn pushed that is now the head of an open pull request. */
export interface PushedHead {
  /** `owner/name`. */
  repo: string;
  number: number;
  headSha: string;
  /** The pull request's page. */
  url: string;
}

/** G4: where a decision was made (a platform, the web console), shown with who made it. */
export type DecidedOn = Platform | 'console';

/**
 * P21: what shows a turn outside its thread: GitHub's check runs on a pull request's head
 * commit. Every call returns at once and never throws: the implementation sends in order,
 * retries what GitHub could not take, logs what it gives up, and never fails or holds up the
 * turn. A conversation it does not cover is ignored.
 */
export interface TurnChecks {
  /** Whether turns of this conversation may show as checks (no I/O: the core asks before it reads). */
  covers(platform: Platform, thread: ThreadId): boolean;
  /** The turn is queued. */
  queued(turn: CheckedTurn): void;
  /** P9: the turn's status card as it is now: the check is in progress, its summary the card's rows. */
  progress(turn: CheckedTurn, card: StatusCard): void;
  ended(turn: CheckedTurn, end: TurnCheckEnd): void;
  /**
   * P21: the turn pushed `head.headSha` to an open pull request's branch: from now on its check
   * (and its approvals') show on that commit, whatever its conversation (then covered for the
   * rest of the turn); a check it had on an earlier commit is closed.
   */
  pushed(turn: CheckedTurn, head: PushedHead): void;
  /** G4: an approval the turn asks, pending (with Approve / Deny) or decided (`decidedOn`: where). */
  approval(turn: CheckedTurn, card: ApprovalCard, decidedOn: DecidedOn | null): void;
}
