import { Octokit } from '@octokit/rest';
import type { GitHubTokens } from './github-app-auth';

/** Clients kept at most; installation tokens rotate hourly, so old ones are let go. */
const MAX_CLIENTS = 64;
/** Octokit's own logging is off: callers log GitHub's errors with their context. */
export const quietOctokitLog = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };

/** `owner/name` as Octokit's calls take a repository. */
export const ownerAndName = (repo: string): { owner: string; repo: string } => {
  const [owner = '', name = ''] = repo.split('/');
  return { owner, repo: name };
};

/**
 * One `@octokit/rest` client per token, built once: a streamed reply edits its comment and a
 * running turn's check run is updated every second, and a client per call would rebuild its
 * plugins each time. The token is asked for each call (an App's installation token scoped to
 * the repository and the permissions, or GITHUB_TOKEN).
 */
export class OctokitPerToken {
  private readonly clients = new Map<string, Octokit>();

  constructor(private readonly options: { apiUrl: string; tokens: GitHubTokens }) {}

  async client(repo: string, permissions: Parameters<GitHubTokens['token']>[1]): Promise<Octokit> {
    const auth = await this.options.tokens.token(repo, permissions);
    let client = this.clients.get(auth);
    if (client === undefined) {
      if (this.clients.size >= MAX_CLIENTS) this.clients.clear();
      client = new Octokit({ baseUrl: this.options.apiUrl, auth, log: quietOctokitLog });
      this.clients.set(auth, client);
    }
    return client;
  }
}
