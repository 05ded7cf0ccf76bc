import type { Platform } from '../model/platform';
import type { ThreadId } from './chat-platform';
import type { PullRequestRef } from './pull-request-store';

/** P21: a check run's conclusion, as Summon sets them. */
export type CheckRunConclusion = 'success' | 'failure' | 'cancelled' | 'neutral' | 'action_required';

/** P21: a button on a check run (GitHub: at most 3; label ≤ 20, description ≤ 40, identifier ≤ 20 characters). */
export interface CheckRunAction {
  label: string;
  description: string;
  identifier: string;
}

/** P21: what a check run is created or updated with (`conclusion` once completed). */
export interface CheckRunWrite {
  name: string;
  /** What the check run stands for in Summon (`summon-run:<id>`, `summon-approval:<id>`). */
  externalId: string;
  status: 'queued' | 'in_progress' | 'completed';
  conclusion?: CheckRunConclusion;
  /** Where GitHub's "Details" link goes (the pull request); GitHub wants one for `action_required`. */
  detailsUrl?: string;
  title: string;
  /** Markdown, at most 65,535 characters. */
  summary: string;
  /** An empty list takes the buttons away. */
  actions?: CheckRunAction[];
}

/** A pull request's head commit and its page. */
export interface PullHead {
  headSha: string;
  url: string;
}

/**
 * P21: the REST calls of GitHub's checks API (and the pull request a check goes on), each
 * with a token for its repository (`owner/name`); GitHub's errors reach the caller.
 * Implemented over `@octokit/rest` in `src/adapters/github`.
 */
export interface GitHubCheckRuns {
  /** The pull request's head; null when the number is an issue's (GitHub answers 404). */
  pullHead(repo: string, number: number): Promise<PullHead | null>;
  createCheckRun(repo: string, headSha: string, run: CheckRunWrite): Promise<number>;
  updateCheckRun(repo: string, id: number, run: CheckRunWrite): Promise<void>;
  /** The check run of a commit with this name and external id (another process created it), or null. */
  findCheckRun(repo: string, headSha: string, name: string, externalId: string): Promise<number | null>;
}

/**
 * P21, P22: the pull request a chat thread's turns show as check runs on (the newest open one
 * recorded on its conversation), or null. One read, asked once per check run.
 */
export type LinkedPullRequest = (platform: Platform, thread: ThreadId) => Promise<PullRequestRef | null>;
