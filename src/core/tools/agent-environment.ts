/**
 * The environment of an agent's processes (A9) — the built-in `bash` tool and CLI agents alike:
 * built from an allow-list, never from a copy of Summon's own environment, so no secret of
 * Summon (model keys, platform tokens, DATABASE_URL, REDIS_URL, GitHub credentials, signing
 * secrets) reaches the agent or the commands it runs. Pure.
 */
const ALLOWED_NAMES = new Set([
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'LANG',
  'LANGUAGE',
  'TERM',
  'TZ',
  'TMPDIR',
  'COLORTERM',
  'NO_COLOR',
]);
/** Locale variables (`LC_ALL`, `LC_CTYPE`, …) carry no secrets either. */
const ALLOWED_PREFIX = /^LC_[A-Z_]+$/;

/**
 * Variables meant for the agents themselves, set by the operator: `SUMMON_AGENT_ENV_<NAME>`
 * reaches every agent process as `<NAME>` (for example a CLI agent's own `ANTHROPIC_API_KEY`,
 * distinct from Summon's). Nothing else of Summon's environment does.
 */
export const AGENT_ENV_PREFIX = 'SUMMON_AGENT_ENV_';

/** The names Summon's own environment may hold secrets under; their values are scrubbed from output. */
const SECRET_NAME = /KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|PRIVATE|DATABASE_URL|REDIS_URL|_URL$|AUTH/i;

/**
 * The allow-listed part of `base`, the operator's `SUMMON_AGENT_ENV_*` variables, then `extra`.
 * An allowed variable whose value contains one of `secretValues` (a key copied into `PATH`, say)
 * is dropped too; by default those are the secrets of `base` itself.
 */
export function agentEnvironment(
  base: Readonly<Record<string, string | undefined>>,
  extra: Readonly<Record<string, string>> = {},
  secretValues: readonly string[] = secretValuesOf(base),
): Record<string, string> {
  const secrets = secretValues.filter((secret) => secret.length >= 6);
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(base)) {
    if (value === undefined || !(ALLOWED_NAMES.has(name) || ALLOWED_PREFIX.test(name))) continue;
    if (secrets.some((secret) => value.includes(secret))) continue;
    env[name] = value;
  }
  for (const [name, value] of Object.entries(base)) {
    const target = name.slice(AGENT_ENV_PREFIX.length);
    if (value !== undefined && name.startsWith(AGENT_ENV_PREFIX) && /^[A-Za-z_][A-Za-z0-9_]*$/.test(target))
      env[target] = value;
  }
  return { ...env, ...extra };
}

/**
 * Values of the base environment that look like secrets (by their variable's name), and the
 * passwords inside its connection URLs, for keeping them from agents and scrubbing an agent's
 * output before it reaches the thread or the log.
 */
export function secretValuesOf(base: Readonly<Record<string, string | undefined>>): string[] {
  const named = Object.entries(base)
    .filter(([name, value]) => value !== undefined && value.length >= 6 && SECRET_NAME.test(name))
    .filter(([name]) => !(ALLOWED_NAMES.has(name) || ALLOWED_PREFIX.test(name)))
    .map(([, value]) => value as string);
  return [...named, ...named.flatMap(urlSecrets)];
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
