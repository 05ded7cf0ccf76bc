import type { BranchPullRequest, BranchPullRequests } from '../../core/ports/branch-pull-requests';
import type { GitHubTokens } from './github-app-auth';
import { OctokitPerToken, ownerAndName } from './octokit-per-token';

/**
 * P21: `GET /repos/{owner}/{repo}/pulls?head=<owner>:<branch>&state=open` over `@octokit/rest`,
 * with a token that reads the repository's pull requests. The head is named with its owner:
 * GitHub ignores a bare branch name and lists every open pull request.
 */
export class BranchPullsRest implements BranchPullRequests {
  private readonly clients: OctokitPerToken;

  constructor(options: { apiUrl: string; tokens: GitHubTokens }) {
    this.clients = new OctokitPerToken(options);
  }

  async openOfBranch(repo: string, branch: string): Promise<BranchPullRequest[]> {
    const client = await this.clients.client(repo, { pull_requests: 'read' });
    const names = ownerAndName(repo);
    const { data } = await client.rest.pulls.list({
      ...names,
      head: `${names.owner}:${branch}`,
      state: 'open',
      per_page: 100,
    });
    // The owner's other repositories (a fork of its own) may have a branch of the same name.
    return data
      .filter((pull) => pull.head.repo?.full_name.toLowerCase() === repo.toLowerCase())
      .map((pull) => ({ number: pull.number, title: pull.title, url: pull.html_url }));
  }
}
