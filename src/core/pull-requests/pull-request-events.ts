import { z } from 'zod';
import type { PullRequestChecks, PullRequestState } from '../ports/pull-request-store';

const repository = z.object({ full_name: z.string().regex(/^[^/\s]+\/[^/\s]+$/) });
const sha = z.string().regex(/^[0-9a-f]{7,64}$/i);

const pullRequestPayload = z.object({
  action: z.string(),
  pull_request: z.object({
    number: z.number().int().positive(),
    title: z.string(),
    state: z.enum(['open', 'closed']),
    merged: z.boolean().nullable().optional(),
    head: z.object({ sha }),
  }),
  repository,
});

const checkSuitePayload = z.object({
  action: z.literal('completed'),
  check_suite: z.object({
    id: z.number().int().positive(),
    head_sha: sha,
    conclusion: z.string().nullable(),
    pull_requests: z.array(z.object({ number: z.number().int().positive() })).default([]),
  }),
  repository,
});

/** P22: what a `pull_request` delivery says about a pull request. */
export interface PullRequestChange {
  repo: string;
  number: number;
  title: string;
  headSha: string;
  state: PullRequestState;
}

/** P22, P23: what a completed `check_suite` delivery says about a commit. */
export interface SuiteCompleted {
  repo: string;
  suiteId: number;
  headSha: string;
  checks: PullRequestChecks;
  /** The pull requests GitHub names for the suite (none for a fork's). */
  numbers: number[];
}

/** P22: a `pull_request` delivery, or null when it is not one Summon reads. */
export function readPullRequestChange(payload: unknown): PullRequestChange | null {
  const parsed = pullRequestPayload.safeParse(payload);
  if (!parsed.success) return null;
  const { pull_request: pull, repository: repo } = parsed.data;
  return {
    repo: repo.full_name.toLowerCase(),
    number: pull.number,
    title: pull.title,
    headSha: pull.head.sha,
    state: pull.merged === true ? 'merged' : pull.state,
  };
}

/** P22, P23: a completed `check_suite` delivery, or null when it is not one. */
export function readSuiteCompleted(payload: unknown): SuiteCompleted | null {
  const parsed = checkSuitePayload.safeParse(payload);
  if (!parsed.success) return null;
  const { check_suite: suite, repository: repo } = parsed.data;
  return {
    repo: repo.full_name.toLowerCase(),
    suiteId: suite.id,
    headSha: suite.head_sha,
    checks: checksOf(suite.conclusion),
    numbers: suite.pull_requests.map((p) => p.number),
  };
}

/** GitHub's suite conclusions, as the thread shows them: `timed_out` and `startup_failure` fail too. */
function checksOf(conclusion: string | null): PullRequestChecks {
  switch (conclusion) {
    case 'success':
      return 'success';
    case 'failure':
    case 'timed_out':
    case 'startup_failure':
      return 'failure';
    default:
      return 'neutral';
  }
}
