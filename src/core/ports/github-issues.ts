/** A comment as Summon reads it back (N13: a question card's marker). */
export interface ListedComment {
  id: number;
  body: string;
}

/**
 * P19, P20: the REST calls the GitHub front end makes on issues and pull requests (`owner/name`
 * repositories), each with a token for its repository; GitHub's errors reach the caller.
 * Implemented over `@octokit/rest` in `src/adapters/github`.
 */
export interface GitHubIssues {
  createIssueComment(repo: string, number: number, body: string): Promise<number>;
  updateIssueComment(repo: string, id: number, body: string): Promise<void>;
  /** A reply in a pull request's review thread, named by its first comment. */
  replyToReviewComment(repo: string, pull: number, commentId: number, body: string): Promise<number>;
  updateReviewComment(repo: string, id: number, body: string): Promise<void>;
  createIssue(repo: string, title: string, body: string): Promise<number>;
  updateIssueBody(repo: string, number: number, body: string): Promise<void>;
  /** The newest comments of an issue or pull request (at most 100), oldest first. */
  recentComments(repo: string, number: number): Promise<ListedComment[]>;
  /** P20: the person's permission on the repository (`admin`, `write`, `read`, `none`…). */
  permissionOf(repo: string, login: string): Promise<string>;
}
