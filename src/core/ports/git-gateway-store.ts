import type { GitCredentialRecord, GitPushRecord, GitPushStatus } from '../model/git-gateway';

/** G3: per-run gateway credentials, stored hashed. */
export interface GitCredentialRepository {
  insert(
    workspaceId: string,
    fields: { runId: string; tokenHash: string; repos: string[]; expiresAt: Date },
  ): Promise<GitCredentialRecord>;
  /** System context: the gateway knows only the presented token's hash. */
  findByTokenHash(tokenHash: string): Promise<GitCredentialRecord | null>;
  /** Ends every credential of the run (the run is over). Returns how many were still live. */
  revokeForRun(runId: string, at: Date): Promise<number>;
}

/** G2, G5: the pushes the gateway saw and what became of them. */
export interface GitPushRepository {
  insert(
    workspaceId: string,
    fields: Pick<
      GitPushRecord,
      'runId' | 'repo' | 'updates' | 'decision' | 'status' | 'approvalId' | 'reason'
    >,
  ): Promise<GitPushRecord>;
  /** Moves a push on (compare-and-set from `from` when given); returns the record, or null if it was not in `from`. */
  setStatus(
    id: string,
    change: { status: GitPushStatus; reason?: string; approvalId?: string | null; finishedAt?: Date | null },
    from?: GitPushStatus,
  ): Promise<GitPushRecord | null>;
  /** Abandoned pushes of a run to a repo that carry an approval, newest first. */
  listAbandoned(runId: string, repo: string): Promise<GitPushRecord[]>;
  /** Newest first, at most `limit` (system context: every workspace). */
  listRecent(limit: number): Promise<GitPushRecord[]>;
  listWaiting(): Promise<GitPushRecord[]>;
  /** The run's pushes still waiting on an approval. */
  listWaitingForRun(runId: string): Promise<GitPushRecord[]>;
}
