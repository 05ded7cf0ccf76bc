import type { RunCredentials } from './run-credentials';

/** What a run's git needs: environment variables only, no files and no argv. */
export interface RunGitEnvironment {
  /** Merge into the run's process environment. Holds the per-run gateway credential, never a GitHub one. */
  env: Record<string, string>;
  /** The repositories ("owner/name") the credential covers. */
  repos: string[];
  /** The gateway URL of a repository, for `origin` (it carries no credential). */
  remoteUrl(repo: string): string;
}

/**
 * G3: the per-run git environment. The run's git talks only to the gateway: `origin` (and any
 * URL under GitHub or the configured upstream) is rewritten to the gateway with `insteadOf`,
 * and the per-run credential travels as an `http.extraHeader` scoped to the gateway's URL,
 * through GIT_CONFIG_* variables, so `.git/config`, argv and the working files hold nothing
 * secret. Null when the run's space has no repositories.
 */
export async function runGitEnvironment(
  credentials: RunCredentials,
  runId: string,
  options: { gatewayUrl: string; upstreamUrl?: string },
): Promise<RunGitEnvironment | null> {
  const issued = await credentials.issue(runId);
  if (issued === null) return null;
  const base = `${options.gatewayUrl.replace(/\/$/, '')}/git/`;
  const config: [string, string][] = [
    [
      `http.${base}.extraHeader`,
      `Authorization: Basic ${Buffer.from(`summon-run:${issued.token}`).toString('base64')}`,
    ],
    ['credential.helper', ''],
    [`url.${base}.insteadOf`, 'https://github.com/'],
    [`url.${base}.insteadOf`, 'git@github.com:'],
  ];
  if (options.upstreamUrl !== undefined && !/^https:\/\/github\.com\/?$/.test(options.upstreamUrl)) {
    config.push([`url.${base}.insteadOf`, `${options.upstreamUrl.replace(/\/$/, '')}/`]);
  }
  const env: Record<string, string> = { GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_COUNT: String(config.length) };
  config.forEach(([key, value], i) => {
    env[`GIT_CONFIG_KEY_${i}`] = key;
    env[`GIT_CONFIG_VALUE_${i}`] = value;
  });
  return { env, repos: issued.repos, remoteUrl: (repo) => `${base}${repo}.git` };
}
