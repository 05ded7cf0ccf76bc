import { EntitySchema } from 'typeorm';
import { GIT_PUSH_STATUSES, type GitPushStatus } from '../../core/model/git-gateway';
import { GUARDRAIL_DECISIONS } from '../../core/model/guardrail';
import {
  createdAt,
  creationSeq,
  jsonb,
  oneOf,
  primaryId,
  sameWorkspaceForeignKey,
  text,
  timestamp,
  uuid,
} from './columns';

/** G2, G5: a push the gateway saw, the decision and what became of it. */
export interface GitPushRow {
  id: string;
  seq: string;
  workspaceId: string;
  runId: string;
  repo: string;
  updates: unknown;
  decision: 'allow' | 'ask' | 'deny';
  status: GitPushStatus;
  approvalId: string | null;
  reason: string;
  createdAt: Date;
  finishedAt: Date | null;
}

export const GitPushEntity = new EntitySchema<GitPushRow>({
  name: 'git_pushes',
  columns: {
    id: primaryId('git_pushes'),
    seq: creationSeq,
    workspaceId: uuid(),
    runId: uuid(),
    repo: text(),
    updates: jsonb('[]'),
    decision: text(),
    status: text(),
    approvalId: uuid(true),
    reason: text({ default: '' }),
    createdAt,
    finishedAt: timestamp({ nullable: true }),
  },
  foreignKeys: [sameWorkspaceForeignKey('fk_git_pushes_run', 'runId', 'runs', 'CASCADE')],
  checks: [
    { name: 'ck_git_pushes_decision', expression: oneOf('decision', GUARDRAIL_DECISIONS) },
    { name: 'ck_git_pushes_status', expression: oneOf('status', GIT_PUSH_STATUSES) },
  ],
  indices: [
    { name: 'ix_git_pushes_run', columns: ['runId', 'repo', 'status'] },
    { name: 'ix_git_pushes_created', columns: ['createdAt', 'seq'] },
  ],
});
