/**
 * The environment of a CLI agent's process (A9): built from an allow-list, never from a copy of
 * Summon's own environment, so no secret of Summon (model keys, platform tokens, DATABASE_URL,
 * REDIS_URL, GitHub credentials, signing secrets) reaches the agent or the commands it runs.
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
 * reaches every CLI agent as `<NAME>` (for example the agents' own `ANTHROPIC_API_KEY`, distinct
 * from Summon's). Nothing else of Summon's environment does.
 */
export const AGENT_ENV_PREFIX = 'SUMMON_AGENT_ENV_';

/** The names Summon's own environment may hold secrets under; their values are scrubbed from output. */
const SECRET_NAME = /KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|PRIVATE|DATABASE_URL|REDIS_URL|_URL$|AUTH/i;

export function agentEnvironment(
  base: NodeJS.ProcessEnv,
  extra: Record<string, string>,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(base)) {
    if (value === undefined) continue;
    if (ALLOWED_NAMES.has(name) || ALLOWED_PREFIX.test(name)) env[name] = value;
  }
  for (const [name, value] of Object.entries(base)) {
    const target = name.slice(AGENT_ENV_PREFIX.length);
    if (value !== undefined && name.startsWith(AGENT_ENV_PREFIX) && /^[A-Za-z_][A-Za-z0-9_]*$/.test(target))
      env[target] = value;
  }
  return { ...env, ...extra };
}

/**
 * Values of the base environment that look like secrets (by their variable's name), for
 * scrubbing an agent's error output before it reaches the thread or the log.
 */
export function secretValuesOf(base: NodeJS.ProcessEnv): string[] {
  return Object.entries(base)
    .filter(([name, value]) => value !== undefined && value.length >= 6 && SECRET_NAME.test(name))
    .filter(([name]) => !(ALLOWED_NAMES.has(name) || ALLOWED_PREFIX.test(name)))
    .map(([, value]) => value as string);
}
