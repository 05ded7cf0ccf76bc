/**
 * G3: a per-run credential for the git gateway. Only its hash is stored; it is scoped to the
 * repositories of the run's space and stops working when the run ends or it expires.
 */
export interface GitCredentialRecord {
  id: string;
  workspaceId: string;
  runId: string;
  /** "owner/name" of each repository the run may reach through the gateway. */
  repos: string[];
  createdAt: Date;
  expiresAt: Date;
  revokedAt: Date | null;
}

/** One `<old> <new> <ref>` command of a push (object ids as 40 hex digits; zeros = none). */
export interface RefUpdate {
  oldId: string;
  newId: string;
  ref: string;
}

export const GIT_PUSH_STATUSES = ['waiting', 'forwarded', 'refused', 'abandoned', 'released'] as const;
/**
 * waiting: on an approval; forwarded: sent upstream; refused: denied or expired (nothing sent);
 * abandoned: the client went away while waiting (its approval may still release the identical
 * push once); released: an abandoned push whose approval a later identical push used.
 */
export type GitPushStatus = (typeof GIT_PUSH_STATUSES)[number];

/** G2, G5: a push seen by the gateway and what was decided; `summon gateway status` lists them. */
export interface GitPushRecord {
  id: string;
  workspaceId: string;
  runId: string;
  repo: string;
  updates: RefUpdate[];
  decision: 'allow' | 'ask' | 'deny';
  status: GitPushStatus;
  approvalId: string | null;
  reason: string;
  createdAt: Date;
  finishedAt: Date | null;
}
