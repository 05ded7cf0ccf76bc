import { createAppAuth } from '@octokit/auth-app';
import { Octokit } from '@octokit/rest';
import { basicAccessToken, type GitAccess, type UpstreamAuth } from '../git-gateway/upstream';

export const DEFAULT_GITHUB_API_URL = 'https://api.github.com';

type Permissions = Record<string, 'read' | 'write'>;

/**
 * G3: the gateway's GitHub credential as a GitHub App: the installation is looked up per
 * repository (`GET /repos/{owner}/{repo}/installation`, signed with the app's JWT), and each
 * installation token is scoped to that one repository and the permissions asked for
 * (`contents` for git). @octokit/auth-app caches the tokens until shortly before they expire.
 */
export class GitHubAppAuth implements UpstreamAuth {
  private readonly app: Octokit;
  private readonly installations = new Map<string, number>();

  constructor(options: { appId: string | number; privateKey: string; apiUrl?: string }) {
    this.app = new Octokit({
      baseUrl: options.apiUrl ?? DEFAULT_GITHUB_API_URL,
      authStrategy: createAppAuth,
      auth: { appId: options.appId, privateKey: options.privateKey },
      log: { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} },
    });
  }

  async authorization(repo: string, access: GitAccess): Promise<string> {
    return basicAccessToken(await this.token(repo, { contents: access }));
  }

  /** An installation token for one repository with exactly these permissions. */
  async token(repo: string, permissions: Permissions): Promise<string> {
    const [owner = '', name = ''] = repo.split('/');
    const installationId = await this.installation(owner, name);
    const auth = (await this.app.auth({
      type: 'installation',
      installationId,
      repositoryNames: [name],
      permissions,
    })) as { token: string };
    return auth.token;
  }

  private async installation(owner: string, name: string): Promise<number> {
    const key = `${owner}/${name}`.toLowerCase();
    const known = this.installations.get(key);
    if (known !== undefined) return known;
    const { data } = await this.app.rest.apps.getRepoInstallation({ owner, repo: name });
    this.installations.set(key, data.id);
    return data.id;
  }
}

/** How the GitHub adapters get a token for a repository: an App installation, or GITHUB_TOKEN. */
export interface GitHubTokens {
  token(repo: string, permissions: Permissions): Promise<string>;
}

/** GITHUB_TOKEN: one token for git (as the gateway's upstream credential) and the REST API. */
export class StaticGitHubTokens implements GitHubTokens, UpstreamAuth {
  constructor(private readonly value: string) {}
  async token(): Promise<string> {
    return this.value;
  }
  async authorization(): Promise<string> {
    return basicAccessToken(this.value);
  }
}
