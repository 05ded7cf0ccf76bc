/** P23: a check run of a failed suite, as the woken agent reads it. */
export interface FailingCheck {
  name: string;
  /** The check run's `output.summary` (or its title), as GitHub returned it; null when it has none. */
  summary: string | null;
  url: string | null;
}

/**
 * P23: the failing check runs of a completed check suite (`GET /repos/{owner}/{repo}/check-suites/{id}/check-runs`),
 * with a token for that repository. Implemented over `@octokit/rest` in `src/adapters/github`.
 */
export interface FailingChecks {
  ofSuite(repo: string, suiteId: number): Promise<FailingCheck[]>;
}
