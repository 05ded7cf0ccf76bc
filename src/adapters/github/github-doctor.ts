import { Octokit } from '@octokit/rest';
import type { GitHubConfig } from '../../config/config';
import {
  type CheckResult,
  type DoctorCheck,
  fail,
  ok,
  reasonOf,
  warn,
  withoutSecrets,
} from '../../core/ports/doctor-check';
import { GitHubAppAuth } from './github-app-auth';

/**
 * `summon doctor` for GitHub (G3): for each repository a space binds, the gateway's credential
 * must reach it: a GitHub App gets an installation token for that repository; `GITHUB_TOKEN`
 * must be able to read it (`GET /repos/{owner}/{repo}`).
 */
export function githubDoctorCheck(github: GitHubConfig, repos: readonly string[]): DoctorCheck {
  return async () => {
    const app =
      github.appId !== undefined && github.appPrivateKey !== undefined
        ? new GitHubAppAuth({ appId: github.appId, privateKey: github.appPrivateKey, apiUrl: github.apiUrl })
        : null;
    const token = github.token;
    if (app === null && token === undefined) {
      return [
        repos.length === 0
          ? ok('github', 'not configured (no space binds a repository)')
          : warn(
              'github',
              `spaces bind ${repos.join(', ')} but no GitHub credential is set: agents cannot push or open pull requests`,
              'set GITHUB_APP_ID and GITHUB_APP_PRIVATE_KEY (a GitHub App installed on those repositories), or GITHUB_TOKEN',
            ),
      ];
    }
    if (repos.length === 0) return [ok('github', 'a credential is set; no space binds a repository yet')];
    const secrets = [token, github.appPrivateKey];
    const results: CheckResult[] = [];
    for (const repo of repos) {
      const name = `github ${repo}`;
      try {
        if (app !== null) {
          await app.token(repo, { contents: 'read' });
          results.push(ok(name, 'the GitHub App has an installation token for it'));
        } else {
          const [owner = '', repoName = ''] = repo.split('/');
          await new Octokit({ auth: token, baseUrl: github.apiUrl, log: quiet }).rest.repos.get({
            owner,
            repo: repoName,
          });
          results.push(ok(name, 'GITHUB_TOKEN can read it'));
        }
      } catch (error) {
        results.push(
          fail(
            name,
            `no access (${withoutSecrets(reasonOf(error), secrets)})`,
            app !== null
              ? `install the GitHub App (id ${github.appId}) on ${repo}, or check GITHUB_APP_ID and GITHUB_APP_PRIVATE_KEY`
              : `give GITHUB_TOKEN access to ${repo} (contents: read and write), or check the repository’s name in the workspace file`,
          ),
        );
      }
    }
    return results;
  };
}

const quiet = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };
