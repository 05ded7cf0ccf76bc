/** G3, P19: the git gateway's and the GitHub front end's settings. */
export interface GitHubConfig {
  /** GITHUB_GIT_URL: where the gateway sends git traffic (default https://github.com). */
  gitUrl: string;
  /** GITHUB_API_URL: the REST API (default https://api.github.com). */
  apiUrl: string;
  /** GITHUB_TOKEN: one token for every repository (simple set-up). */
  token: string | undefined;
  /** GITHUB_APP_ID + GITHUB_APP_PRIVATE_KEY: installation tokens per repository (preferred). */
  appId: string | undefined;
  appPrivateKey: string | undefined;
  /** P19: GITHUB_WEBHOOK_SECRET: with a credential, turns on the GitHub front end (`POST /github/webhooks`). */
  webhookSecret: string | undefined;
  /** SUMMON_GATEWAY_URL: how runs reach this server's `/git/` (default http://127.0.0.1:PORT). */
  gatewayUrl: string | undefined;
}

const nonEmpty = (value: string | undefined): string | undefined =>
  value === undefined || value.trim() === '' ? undefined : value.trim();

/** GITHUB_*: credentials are secrets, the gateway's and the front end's alone, never a run's. */
export function readGitHubConfig(env: NodeJS.ProcessEnv, gatewayUrl: string | undefined): GitHubConfig {
  return {
    gitUrl: nonEmpty(env.GITHUB_GIT_URL) ?? 'https://github.com',
    apiUrl: nonEmpty(env.GITHUB_API_URL) ?? 'https://api.github.com',
    token: nonEmpty(env.GITHUB_TOKEN),
    appId: nonEmpty(env.GITHUB_APP_ID),
    // A PEM in one environment variable often arrives with literal "\n".
    appPrivateKey: nonEmpty(env.GITHUB_APP_PRIVATE_KEY)?.replaceAll('\\n', '\n'),
    webhookSecret: nonEmpty(env.GITHUB_WEBHOOK_SECRET),
    gatewayUrl,
  };
}
