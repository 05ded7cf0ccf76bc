import { Octokit } from '@octokit/rest';
import type { GitHubTokens } from './github-app-auth';

/**
 * A6: a repository's description and stars (`GET /repos/{owner}/{repo}`), shown beside a
 * skill source's listing as untrusted display data: never a signal of safety.
 */
export function repoMetadata(options: { apiUrl: string; tokens: GitHubTokens | null }) {
  return async (repo: string): Promise<{ description: string | null; stars: number | null }> => {
    const [owner = '', name = ''] = repo.split('/');
    const token =
      options.tokens === null ? undefined : await options.tokens.token(repo, { metadata: 'read' });
    const octokit = new Octokit({
      baseUrl: options.apiUrl,
      ...(token === undefined ? {} : { auth: token }),
      log: { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} },
    });
    const { data } = await octokit.rest.repos.get({ owner, repo: name });
    return { description: data.description ?? null, stars: data.stargazers_count ?? null };
  };
}
