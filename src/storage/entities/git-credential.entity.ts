import { EntitySchema } from 'typeorm';
import {
  createdAt,
  creationSeq,
  primaryId,
  sameWorkspaceForeignKey,
  text,
  textArray,
  timestamp,
  uuid,
} from './columns';

/** G3: a per-run gateway credential; only its SHA-256 is stored. */
export interface GitCredentialRow {
  id: string;
  seq: string;
  workspaceId: string;
  runId: string;
  tokenHash: string;
  repos: string[];
  createdAt: Date;
  expiresAt: Date;
  revokedAt: Date | null;
}

export const GitCredentialEntity = new EntitySchema<GitCredentialRow>({
  name: 'git_credentials',
  columns: {
    id: primaryId('git_credentials'),
    seq: creationSeq,
    workspaceId: uuid(),
    runId: uuid(),
    tokenHash: text(),
    repos: textArray,
    createdAt,
    expiresAt: timestamp(),
    revokedAt: timestamp({ nullable: true }),
  },
  foreignKeys: [sameWorkspaceForeignKey('fk_git_credentials_run', 'runId', 'runs', 'CASCADE')],
  uniques: [{ name: 'uq_git_credentials_token_hash', columns: ['tokenHash'] }],
  indices: [{ name: 'ix_git_credentials_run', columns: ['runId'] }],
});
