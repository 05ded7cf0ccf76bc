import type { ApprovalStatus } from '../guardrail';
import type { MemberRole } from '../member';

/**
 * G4: an approval request created by an `ask`. Functions over it are generic, so a richer
 * record (card, repository, branch) passes through them unchanged.
 */
export interface Approval {
  id: string;
  status: ApprovalStatus;
  requestedAt: Date;
  expiresAt: Date;
  /** Who decided; null while pending and for an expiry. */
  decidedByMemberId: string | null;
  /** When it was decided, or when it expired. */
  decidedAt: Date | null;
}

/** Whoever clicked a button on the card. */
export type ApprovalDecider =
  | { kind: 'member'; memberId: string; role: MemberRole }
  | { kind: 'agent'; agentId: string };

/**
 * A click on the card. E4: `approve-conversation` approves an MCP call and grants the same call
 * (same server, tool and arguments) for the rest of its conversation.
 */
export type ApprovalVerdict = 'approve' | 'approve-conversation' | 'deny';

/** What the waiting action does now. */
export type ApprovalOutcome = 'allow' | 'deny' | 'pending';
