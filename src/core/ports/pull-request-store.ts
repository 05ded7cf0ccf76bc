import type { Platform } from '../model/platform';

/** P22: what a pull request's checks add up to, as the thread shows it. */
export type PullRequestChecks = 'pending' | 'success' | 'failure' | 'neutral';
export type PullRequestState = 'open' | 'closed' | 'merged';

/** P21: which pull request: `owner/name` lower-cased, and its number. */
export interface PullRequestRef {
  repo: string;
  number: number;
}

/** P22: a pull request an agent opened from a conversation (`owner/name` lower-cased). */
export interface PullRequestRecord {
  id: string;
  workspaceId: string;
  conversationId: string;
  agentId: string;
  runId: string | null;
  repo: string;
  number: number;
  headSha: string | null;
  title: string;
  url: string;
  state: PullRequestState;
  checks: PullRequestChecks;
  /** The platform ref of the message that shows it in the conversation's thread, once posted. */
  cardRef: string | null;
}

/** P22, P23: pull requests on their conversations; CI failures claimed once per head commit. */
export interface PullRequestRepository {
  insert(fields: Omit<PullRequestRecord, 'id' | 'state' | 'checks' | 'cardRef'>): Promise<PullRequestRecord>;
  /** P22: the pull request `number` of `repo` an agent opened, or null (read in the system context). */
  find(repo: string, number: number): Promise<PullRequestRecord | null>;
  /**
   * P21, P22: the newest open pull request recorded on the conversation of a chat thread (where
   * its turns show as check runs), or null (read in the system context).
   */
  newestOpenOfThread(platform: Platform, threadId: string): Promise<PullRequestRef | null>;
  /** P23: the pull requests whose head is `headSha` (a check suite names commits, not pull requests). */
  findByHead(repo: string, headSha: string): Promise<PullRequestRecord[]>;
  update(
    id: string,
    patch: Partial<Pick<PullRequestRecord, 'headSha' | 'title' | 'state' | 'checks' | 'cardRef'>>,
  ): Promise<void>;
  /**
   * P23: claims the wake of a failing head commit; false when it was claimed already (a
   * redelivery, a second failing suite on the same commit).
   */
  claimFailureWake(pull: Pick<PullRequestRecord, 'id' | 'workspaceId'>, headSha: string): Promise<boolean>;
  /** P23: the run a claimed failure woke. */
  setFailureWakeRun(pullRequestId: string, headSha: string, runId: string): Promise<void>;
}
