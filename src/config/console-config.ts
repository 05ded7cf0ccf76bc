/** O5: one platform's sign-in for the web console: its OAuth client and the API base it calls. */
export interface ConsoleSignInClient {
  clientId: string;
  clientSecret: string;
  /** SLACK_API_URL / DISCORD_API_URL: the same base the bot calls (tests: a stand-in). */
  apiUrl: string;
}

/** O5: the web console's sign-ins and where people reach it. */
export interface ConsoleConfig {
  /** `SUMMON_PUBLIC_URL`: the console's links and the platforms' redirect URLs start here. */
  publicUrl: string | undefined;
  /** "Sign in with Slack" (OpenID Connect), when `SLACK_CLIENT_ID` and `SLACK_CLIENT_SECRET` are set. */
  slack: ConsoleSignInClient | undefined;
  /** "Sign in with Discord" (OAuth2 `identify`), when `DISCORD_CLIENT_ID` and `DISCORD_CLIENT_SECRET` are set. */
  discord: ConsoleSignInClient | undefined;
}

export const SLACK_DEFAULT_API_URL = 'https://slack.com/api/';
export const DISCORD_DEFAULT_API_URL = 'https://discord.com/api';

/**
 * O5: the console's sign-ins, read from the environment. A client id without its secret (or the
 * other way round) refuses the start: a sign-in button that can only fail would be worse.
 */
export function parseConsoleConfig(env: NodeJS.ProcessEnv): ConsoleConfig {
  const slack = client('SLACK', env.SLACK_CLIENT_ID, env.SLACK_CLIENT_SECRET);
  const discord = client('DISCORD', env.DISCORD_CLIENT_ID, env.DISCORD_CLIENT_SECRET);
  return {
    publicUrl: text(env.SUMMON_PUBLIC_URL)?.replace(/\/+$/, ''),
    slack: slack && { ...slack, apiUrl: text(env.SLACK_API_URL) ?? SLACK_DEFAULT_API_URL },
    discord: discord && { ...discord, apiUrl: text(env.DISCORD_API_URL) ?? DISCORD_DEFAULT_API_URL },
  };
}

function client(
  platform: 'SLACK' | 'DISCORD',
  id: string | undefined,
  secret: string | undefined,
): { clientId: string; clientSecret: string } | undefined {
  const [clientId, clientSecret] = [text(id), text(secret)];
  if (clientId === undefined && clientSecret === undefined) return undefined;
  if (clientId === undefined || clientSecret === undefined) {
    const missing = clientId === undefined ? `${platform}_CLIENT_ID` : `${platform}_CLIENT_SECRET`;
    throw new Error(
      `${missing} is not set but ${platform === 'SLACK' ? 'SLACK' : 'DISCORD'}_CLIENT_${clientId === undefined ? 'SECRET' : 'ID'} is: the console's sign-in needs both`,
    );
  }
  return { clientId, clientSecret };
}

const text = (value: string | undefined): string | undefined =>
  value === undefined || value.trim() === '' ? undefined : value.trim();
