import { EntitySchema } from 'typeorm';
import { APPROVAL_ACTIONS, type ApprovalAction } from '../../core/model/approvals/approval-action';
import { APPROVAL_STATUSES, type ApprovalStatus } from '../../core/model/guardrail';
import {
  boolean,
  creationSeq,
  jsonb,
  oneOf,
  primaryId,
  sameWorkspaceForeignKey,
  text,
  timestamp,
  uuid,
} from './columns';

/** G4: an "ask first" decision waiting on an approver; it expires and then counts as denied. */
export interface ApprovalRow {
  id: string;
  seq: string;
  workspaceId: string;
  runId: string;
  action: ApprovalAction;
  /** Repository, branch, old → new commit, commit list: whatever the card shows. */
  details: unknown;
  status: ApprovalStatus;
  decidedByMemberId: string | null;
  requestedAt: Date;
  decidedAt: Date | null;
  expiresAt: Date;
  platformCardRef: string | null;
  subjectHash: string | null;
  conversationGrant: boolean;
  /** W1: a `schedule_routine` card's routine, stored when confirmed. */
  routineProposal: unknown;
}

export const ApprovalEntity = new EntitySchema<ApprovalRow>({
  name: 'approvals',
  columns: {
    id: primaryId('approvals'),
    seq: creationSeq,
    workspaceId: uuid(),
    runId: uuid(),
    action: text(),
    details: jsonb('{}'),
    status: text({ default: 'pending' }),
    decidedByMemberId: uuid(true),
    requestedAt: timestamp({ defaultNow: true }),
    decidedAt: timestamp({ nullable: true }),
    expiresAt: timestamp(),
    platformCardRef: text({ nullable: true }),
    subjectHash: text({ nullable: true }),
    conversationGrant: boolean(false),
    routineProposal: { type: 'jsonb', nullable: true },
  },
  foreignKeys: [
    sameWorkspaceForeignKey('fk_approvals_run', 'runId', 'runs', 'CASCADE'),
    sameWorkspaceForeignKey('fk_approvals_decided_by', 'decidedByMemberId', 'members', 'SET NULL'),
  ],
  checks: [
    { name: 'ck_approvals_action', expression: oneOf('action', APPROVAL_ACTIONS) },
    { name: 'ck_approvals_status', expression: oneOf('status', APPROVAL_STATUSES) },
    // E4: only an MCP call's approval (bound to its hash) can be given for the conversation.
    {
      name: 'ck_approvals_conversation_grant',
      expression: 'NOT conversation_grant OR subject_hash IS NOT NULL',
    },
    // W1: a routine proposal, and only it, carries the routine it would store.
    {
      name: 'ck_approvals_routine_proposal',
      expression: "(action = 'schedule_routine') = (routine_proposal IS NOT NULL)",
    },
  ],
  indices: [{ name: 'ix_approvals_pending', columns: ['status', 'expiresAt'] }],
});
