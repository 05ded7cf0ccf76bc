import path from 'node:path';

/**
 * Everything Summon reads from the environment, in one place. With nothing set, Summon runs
 * on embedded defaults: PGlite under `./.summon/db`, an in-process queue, the terminal chat.
 */
export interface Config {
  dataDir: string;
  /** PostgreSQL when set; embedded PGlite under `dataDir/db` otherwise. */
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  port: number;
  logLevel: string;
  models: ModelConfig;
  discord: DiscordConfig;
}

/** The Discord front end starts when a token is set. The token is a secret: it never reaches logs. */
export interface DiscordConfig {
  token: string | undefined;
  /** `DISCORD_API_URL`: the REST base (tests: a local stand-in); the gateway URL comes from it. */
  apiUrl: string | undefined;
}

/** A10: where agents' turns go. Keys are secrets: they reach runners only, never logs or prompts. */
export interface ModelConfig {
  anthropicApiKey: string | undefined;
  anthropicBaseUrl: string | undefined;
  /** The built-in loop's model when an agent names none (A10). */
  defaultModel: string;
  openaiBaseUrl: string | undefined;
  openaiApiKey: string | undefined;
}

export const DEFAULT_MODEL = 'claude-sonnet-4-6';

export function loadConfig(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): Config {
  const port = Number(env.PORT ?? 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`PORT must be a port number (0-65535), got "${env.PORT}"`);
  }
  return {
    dataDir: path.resolve(cwd, nonEmpty(env.SUMMON_DATA_DIR) ?? '.summon'),
    databaseUrl: nonEmpty(env.DATABASE_URL),
    redisUrl: nonEmpty(env.REDIS_URL),
    port,
    logLevel: nonEmpty(env.LOG_LEVEL) ?? 'info',
    models: {
      anthropicApiKey: nonEmpty(env.ANTHROPIC_API_KEY),
      anthropicBaseUrl: nonEmpty(env.ANTHROPIC_BASE_URL),
      defaultModel: nonEmpty(env.SUMMON_DEFAULT_MODEL) ?? DEFAULT_MODEL,
      openaiBaseUrl: nonEmpty(env.OPENAI_BASE_URL),
      openaiApiKey: nonEmpty(env.OPENAI_API_KEY),
    },
    discord: { token: nonEmpty(env.DISCORD_TOKEN), apiUrl: nonEmpty(env.DISCORD_API_URL) },
  };
}

export const databaseDir = (config: Pick<Config, 'dataDir'>): string => path.join(config.dataDir, 'db');
export const workspacesDir = (config: Pick<Config, 'dataDir'>): string =>
  path.join(config.dataDir, 'workspaces');

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}
