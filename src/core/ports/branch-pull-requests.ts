/** P21: an open pull request whose head is a pushed branch. */
export interface BranchPullRequest {
  number: number;
  title: string;
  /** The pull request's page. */
  url: string;
}

/**
 * P21, P22: the open pull requests of a repository (`owner/name`) whose head is one of its own
 * branches. Implemented over `@octokit/rest` in `src/adapters/github`; GitHub's errors reach
 * the caller.
 */
export interface BranchPullRequests {
  openOfBranch(repo: string, branch: string): Promise<BranchPullRequest[]>;
}
