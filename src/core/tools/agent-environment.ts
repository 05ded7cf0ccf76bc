/** Variables the service itself uses for secrets or infrastructure, whatever their value. */
const SUMMON_NAMES = new Set([
  'ANTHROPIC_API_KEY',
  'ANTHROPIC_AUTH_TOKEN',
  'OPENAI_API_KEY',
  'DATABASE_URL',
  'REDIS_URL',
  'SLACK_BOT_TOKEN',
  'SLACK_APP_TOKEN',
  'SLACK_SIGNING_SECRET',
  'DISCORD_TOKEN',
  'DISCORD_BOT_TOKEN',
  'GITHUB_TOKEN',
  'GH_TOKEN',
  'GITHUB_APP_PRIVATE_KEY',
  'NPM_TOKEN',
]);

/** Names that look like credentials. */
const SECRET_NAME =
  /(TOKEN|SECRET|PASSWORD|PASSWD|API_KEY|PRIVATE_KEY|CREDENTIAL|_DSN$|DATABASE_URL|REDIS_URL)/i;

/**
 * What an agent's processes get as environment: the parent's, without every Summon secret —
 * model keys, platform tokens, database and Redis URLs (they carry passwords), anything
 * named like a credential, anything `SUMMON_*`, and any variable whose value contains one of
 * the known secret values (a key copied under another name). Pure.
 */
export function agentEnvironment(
  env: Readonly<Record<string, string | undefined>>,
  secretValues: readonly string[],
  extra: Readonly<Record<string, string>> = {},
): Record<string, string> {
  const secrets = secretValues.filter((s) => s.length >= 6);
  const clean: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue;
    if (SUMMON_NAMES.has(name) || SECRET_NAME.test(name) || name.startsWith('SUMMON_')) continue;
    if (secrets.some((secret) => value.includes(secret))) continue;
    clean[name] = value;
  }
  return { ...clean, ...extra };
}

/** The secret parts of a connection URL (its password), for `secretValues`. */
export function urlSecrets(url: string | undefined): string[] {
  if (url === undefined) return [];
  try {
    const password = decodeURIComponent(new URL(url).password);
    return password === '' ? [] : [password];
  } catch {
    return [];
  }
}
