import { GUARDRAIL_ACTIONS } from '../guardrail';

/**
 * G4, W1: what an approval card asks about: a guarded action of a run (G1), or an agent's
 * proposal of a routine (`schedule_routine`), which a person confirms or cancels.
 */
export const APPROVAL_ACTIONS = [...GUARDRAIL_ACTIONS, 'schedule_routine'] as const;
export type ApprovalAction = (typeof APPROVAL_ACTIONS)[number];

/** G4, W1: the words of a card's buttons and of its decision. */
export interface ApprovalLabels {
  approve: string;
  deny: string;
  approved: string;
  denied: string;
}

const GUARDED: ApprovalLabels = { approve: 'Approve', deny: 'Deny', approved: 'Approved', denied: 'Denied' };
// W1: a routine proposal is confirmed or cancelled, not approved.
const PROPOSAL: ApprovalLabels = {
  approve: 'Confirm',
  deny: 'Cancel',
  approved: 'Confirmed',
  denied: 'Cancelled',
};

/** The words for a card of `action` (a string: front ends read it from the card). */
export const approvalLabels = (action: string): ApprovalLabels =>
  action === 'schedule_routine' ? PROPOSAL : GUARDED;

/** `Approved`, `Denied`, `Expired`; `Confirmed`, `Cancelled` on a routine proposal's card. */
export function decisionWord(action: string, status: string): string {
  const labels = approvalLabels(action);
  if (status === 'approved') return labels.approved;
  if (status === 'denied') return labels.denied;
  return `${status.charAt(0).toUpperCase()}${status.slice(1)}`;
}
