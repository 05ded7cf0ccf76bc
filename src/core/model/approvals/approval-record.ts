import type { ApprovalStatus } from '../guardrail';
import type { RoutineProposal } from '../routines/routine';
import type { ApprovalAction } from './approval-action';

/** G4: what an approval card shows: a one-line summary and detail lines (repo, ref, old → new, commits). */
export interface ApprovalDetails {
  summary: string;
  lines: string[];
  /** E4: preformatted text shown as a block (an MCP call's arguments as JSON, bounded and masked). */
  code?: string;
}

/** G4: an "ask first" decision waiting on an approver; it expires and then counts as denied. */
export interface ApprovalRecord {
  id: string;
  workspaceId: string;
  runId: string;
  action: ApprovalAction;
  details: ApprovalDetails;
  status: ApprovalStatus;
  decidedByMemberId: string | null;
  requestedAt: Date;
  decidedAt: Date | null;
  expiresAt: Date;
  /** P5: the platform ref of the card, so a decision edits it after a restart. */
  platformCardRef: string | null;
  /**
   * E4: an MCP call's approval is bound to a hash of its server, tool and arguments (canonical
   * JSON); null for every other action. Only such an approval can be granted for the conversation.
   */
  subjectHash: string | null;
  /** E4: approved for the whole conversation (the same call there needs no card again). */
  conversationGrant: boolean;
  /** W1: the routine a `schedule_routine` card stores when confirmed; null for every other action. */
  routineProposal: RoutineProposal | null;
}
