/**
 * G2a: whether an `ask` can be answered. Either a plain yes/no, or the two facts it is made
 * of, so the agent can be told precisely what is missing.
 */
export type ApprovalReach = boolean | { approverCount: number; hasBoundChannel: boolean };

const NO_APPROVER = 'no member can approve it (the workspace has no owner, admin or approver)';
const NO_CHANNEL =
  'there is no channel to post the approval card in (no chat channel is bound to this space)';

/** Why an `ask` cannot be answered, as a clause; null when it can. */
export function approvalBlocker(reach: ApprovalReach): string | null {
  if (reach === true) return null;
  if (reach === false) {
    return 'no member can approve it or there is no channel to post the approval card in';
  }
  const noApprover = !(reach.approverCount > 0);
  const noChannel = !reach.hasBoundChannel;
  if (noApprover && noChannel) return `${NO_APPROVER}, and ${NO_CHANNEL}`;
  if (noApprover) return NO_APPROVER;
  if (noChannel) return NO_CHANNEL;
  return null;
}

/** What to do about it, as a sentence; null when nothing is missing. */
export function approvalRemedy(reach: ApprovalReach): string | null {
  if (reach === true) return null;
  if (reach === false) {
    return 'A workspace owner can give a member the approver role or bind a chat channel to the space.';
  }
  const noApprover = !(reach.approverCount > 0);
  const noChannel = !reach.hasBoundChannel;
  if (noApprover && noChannel) {
    return 'A workspace owner can give a member the approver role and bind a chat channel to the space.';
  }
  if (noApprover) return 'A workspace owner can give a member the approver role.';
  if (noChannel) return 'A workspace owner can bind a chat channel to the space.';
  return null;
}
