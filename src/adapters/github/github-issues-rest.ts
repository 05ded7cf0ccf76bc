import type { Octokit } from '@octokit/rest';
import type { GitHubIssues, ListedComment } from '../../core/ports/github-issues';
import type { GitHubTokens } from './github-app-auth';
import { OctokitPerToken, ownerAndName } from './octokit-per-token';

/** Installation permissions, as a GitHub App's token is asked for them. */
type GitHubPermissions = Record<string, 'read' | 'write'>;

/** What Summon writes on issues and pull requests. */
const WRITE: GitHubPermissions = { issues: 'write', pull_requests: 'write' };
const READ: GitHubPermissions = { metadata: 'read' };

/**
 * P19: the GitHub front end's REST calls (`GitHubIssues`), each with a token for its repository
 * (the App's installation token scoped to it, or GITHUB_TOKEN). Octokit throws GitHub's errors
 * (`status`, GitHub's message) to the caller.
 */
export class GitHubIssuesRest implements GitHubIssues {
  constructor(options: { apiUrl: string; tokens: GitHubTokens }) {
    this.clients = new OctokitPerToken(options);
  }

  private readonly clients: OctokitPerToken;

  private client(repo: string, permissions: GitHubPermissions = WRITE): Promise<Octokit> {
    return this.clients.client(repo, permissions);
  }

  async createIssueComment(repo: string, number: number, body: string): Promise<number> {
    const { data } = await (await this.client(repo)).rest.issues.createComment({
      ...ownerAndName(repo),
      issue_number: number,
      body,
    });
    return data.id;
  }

  async updateIssueComment(repo: string, id: number, body: string): Promise<void> {
    await (await this.client(repo)).rest.issues.updateComment({
      ...ownerAndName(repo),
      comment_id: id,
      body,
    });
  }

  /** A reply in a pull request's review thread, named by its first comment. */
  async replyToReviewComment(repo: string, pull: number, commentId: number, body: string): Promise<number> {
    const { data } = await (await this.client(repo)).rest.pulls.createReplyForReviewComment({
      ...ownerAndName(repo),
      pull_number: pull,
      comment_id: commentId,
      body,
    });
    return data.id;
  }

  async updateReviewComment(repo: string, id: number, body: string): Promise<void> {
    await (await this.client(repo)).rest.pulls.updateReviewComment({
      ...ownerAndName(repo),
      comment_id: id,
      body,
    });
  }

  async createIssue(repo: string, title: string, body: string): Promise<number> {
    const { data } = await (await this.client(repo)).rest.issues.create({
      ...ownerAndName(repo),
      title,
      body,
    });
    return data.number;
  }

  async updateIssueBody(repo: string, number: number, body: string): Promise<void> {
    await (await this.client(repo)).rest.issues.update({ ...ownerAndName(repo), issue_number: number, body });
  }

  /** The newest comments of an issue or pull request (at most 100), oldest first. */
  async recentComments(repo: string, number: number): Promise<ListedComment[]> {
    const { data } = await (await this.client(repo, READ)).rest.issues.listComments({
      ...ownerAndName(repo),
      issue_number: number,
      per_page: 100,
    });
    return data.map((c) => ({ id: c.id, body: c.body ?? '' }));
  }

  /** P20: the person's permission on the repository (`admin`, `write`, `read`, `none`…). */
  async permissionOf(repo: string, login: string): Promise<string> {
    const { data } = await (await this.client(repo, READ)).rest.repos.getCollaboratorPermissionLevel({
      ...ownerAndName(repo),
      username: login,
    });
    return data.permission;
  }
}
