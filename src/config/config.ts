import os from 'node:os';
import path from 'node:path';
import { type AuditConfig, parseAuditConfig } from './audit-config';
import { gatewayUrlProblem } from './gateway-url';
import { type GitHubConfig, readGitHubConfig } from './github-config';
import { type McpConfig, parseMcpConfig } from './mcp-config';
import { parseSecretKey } from './secret-key';
import { parseServeRole, type ServeRole } from './serve-role';

export type { GitHubConfig };

/**
 * Everything Summon reads from the environment, in one place. With nothing set, Summon runs
 * on embedded defaults: PGlite under `./.summon/db`, an in-process queue, the terminal chat.
 */
export interface Config extends AuditConfig {
  dataDir: string;
  /** PostgreSQL when set; embedded PGlite under `dataDir/db` otherwise. */
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  port: number;
  /** SUMMON_PUBLIC_URL: where people and Slack (HTTP mode) reach this server; `summon doctor` checks it. */
  publicUrl: string | undefined;
  /** N5, R1: `SUMMON_RELAY_NAME`, this deployment's name in note rows and pairings; unset: "this relay". */
  relayName: string | undefined;
  /** R3: `SUMMON_RELAY_RATE_LIMIT`, notes one paired relay may hand one agent per 10 minutes (default 30). */
  relayRateLimit: number;
  /** T3: `SUMMON_CONCURRENCY`, active turns at once per process (default 64); waiting turns hold none. */
  concurrency: number;
  /** `SUMMON_ROLE` (`summon serve --role`): all (default), web (HTTP and front ends) or worker (turns). */
  role: ServeRole;
  /** A12: `SUMMON_DEAD_AFTER_MS`, how long a running turn's silence means its worker died (default 60 s). */
  deadAfterMs: number;
  /** P9, P14: `SUMMON_SIGN_OF_LIFE_MS`, when a turn shows its card, session and stream (default 300). */
  signOfLifeMs: number;
  /** P7: `SUMMON_OUTBOX_GIVE_UP_HOURS`, how long an outgoing call the platform cannot take is retried (default 24). */
  outboxGiveUpMs: number;
  logLevel: string;
  /**
   * E5: `SUMMON_SECRET_KEY`, 32 bytes: encrypts stored OAuth tokens and client secrets
   * (AES-256-GCM). Unset: servers that need OAuth are refused with a sentence saying to set it.
   */
  secretKey: Buffer | undefined;
  models: ModelConfig;
  /** G3: the git gateway and GitHub. Credentials are secrets: the gateway's alone, never a run's. */
  github: GitHubConfig;
  /** The Slack front end, when SLACK_BOT_TOKEN is set. Tokens and the secret are redacted from logs. */
  slack: SlackConfig | undefined;
  discord: DiscordConfig;
  /** X1–X4: how agents' commands (bash, CLI agents) are confined. */
  sandbox: SandboxConfig;
  /** E2, E3: Summon's MCP client (idle connections, call timeout). */
  mcp: McpConfig;
}

/** X4: the sandbox is on unless `SUMMON_SANDBOX=off`; any other value than on/off is an error. */
export interface SandboxConfig {
  mode: 'on' | 'off';
  /** SUMMON_PROCESS_CONCURRENCY: agents' processes running at once (T3; default 2 × CPUs, at least 2). */
  processConcurrency: number;
  /** SUMMON_SANDBOX_READ_ONLY: more host paths (colon-separated) a CLI agent needs, visible read-only. */
  readOnlyPaths: string[];
}

export interface SlackConfig {
  botToken: string;
  signingSecret: string | undefined;
  /** Socket Mode when set; HTTP on `POST /slack/events` otherwise. */
  appToken: string | undefined;
  /** SLACK_API_URL: the Web API base URL (tests, Slack-compatible servers). */
  apiUrl: string | undefined;
  /**
   * P14: `SLACK_STREAM_ROLLOVER_SECONDS`, after how long a streamed reply goes on in a new
   * message (Slack ends a stream after about five minutes); default 240.
   */
  streamRolloverMs: number | undefined;
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
  /** A10: SUMMON_DEFAULT_MODEL as set (undefined when not): discovery then picks a server's first model. */
  chosenModel?: string | undefined;
  /** A10: SUMMON_OLLAMA_URL, where discovery looks for a local Ollama (default http://127.0.0.1:11434). */
  ollamaUrl?: string;
  /** A10: PATH, where discovery looks for a `claude` CLI. */
  searchPath?: string | undefined;
}

export const DEFAULT_OLLAMA_URL = 'http://127.0.0.1:11434';
export const DEFAULT_MODEL = 'claude-sonnet-4-6';
export function loadConfig(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): Config {
  const port = Number(env.PORT ?? 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`PORT must be a port number (0-65535), got "${env.PORT}"`);
  }
  const sandbox = sandboxConfig(env);
  const gatewayUrl = nonEmpty(env.SUMMON_GATEWAY_URL);
  // X2, X4: a gateway the sandbox cannot carry in would leave every run's git without it.
  const gatewayProblem =
    sandbox.mode === 'on' && gatewayUrl !== undefined ? gatewayUrlProblem(gatewayUrl) : undefined;
  if (gatewayProblem !== undefined) throw new Error(gatewayProblem);
  return {
    dataDir: path.resolve(cwd, nonEmpty(env.SUMMON_DATA_DIR) ?? '.summon'),
    databaseUrl: nonEmpty(env.DATABASE_URL),
    redisUrl: nonEmpty(env.REDIS_URL),
    port,
    publicUrl: nonEmpty(env.SUMMON_PUBLIC_URL),
    relayName: parseRelayName(env.SUMMON_RELAY_NAME),
    relayRateLimit: parseRelayRateLimit(env.SUMMON_RELAY_RATE_LIMIT),
    concurrency: parseConcurrency(env.SUMMON_CONCURRENCY),
    role: parseServeRole(env.SUMMON_ROLE),
    deadAfterMs: parseDeadAfter(env.SUMMON_DEAD_AFTER_MS),
    signOfLifeMs: parseSignOfLife(env.SUMMON_SIGN_OF_LIFE_MS),
    outboxGiveUpMs: parseOutboxGiveUp(env.SUMMON_OUTBOX_GIVE_UP_HOURS),
    mcp: parseMcpConfig(env),
    ...parseAuditConfig(env),
    logLevel: nonEmpty(env.LOG_LEVEL) ?? 'info',
    secretKey: parseSecretKey(env.SUMMON_SECRET_KEY),
    models: {
      anthropicApiKey: nonEmpty(env.ANTHROPIC_API_KEY),
      anthropicBaseUrl: nonEmpty(env.ANTHROPIC_BASE_URL),
      defaultModel: nonEmpty(env.SUMMON_DEFAULT_MODEL) ?? DEFAULT_MODEL,
      openaiBaseUrl: nonEmpty(env.OPENAI_BASE_URL),
      openaiApiKey: nonEmpty(env.OPENAI_API_KEY),
      chosenModel: nonEmpty(env.SUMMON_DEFAULT_MODEL),
      ollamaUrl: (nonEmpty(env.SUMMON_OLLAMA_URL) ?? DEFAULT_OLLAMA_URL).replace(/\/+$/, ''),
      searchPath: nonEmpty(env.PATH),
    },
    github: readGitHubConfig(env, gatewayUrl),
    slack: slackConfig(env),
    discord: { token: nonEmpty(env.DISCORD_TOKEN), apiUrl: nonEmpty(env.DISCORD_API_URL) },
    sandbox,
  };
}

function sandboxConfig(env: NodeJS.ProcessEnv): SandboxConfig {
  const mode = (nonEmpty(env.SUMMON_SANDBOX) ?? 'on').toLowerCase();
  if (mode !== 'on' && mode !== 'off')
    throw new Error(`SUMMON_SANDBOX must be "on" (the default) or "off", got "${env.SUMMON_SANDBOX}"`);
  const concurrency = nonEmpty(env.SUMMON_PROCESS_CONCURRENCY);
  const processConcurrency =
    concurrency === undefined ? Math.max(2, 2 * os.availableParallelism()) : Number(concurrency);
  if (!Number.isInteger(processConcurrency) || processConcurrency < 1)
    throw new Error(`SUMMON_PROCESS_CONCURRENCY must be a whole number of at least 1, got "${concurrency}"`);
  const readOnlyPaths = (nonEmpty(env.SUMMON_SANDBOX_READ_ONLY) ?? '')
    .split(':')
    .filter((entry) => entry !== '')
    .map((entry) => path.resolve(entry));
  return { mode, processConcurrency, readOnlyPaths };
}

function slackConfig(env: NodeJS.ProcessEnv): SlackConfig | undefined {
  const botToken = nonEmpty(env.SLACK_BOT_TOKEN);
  if (botToken === undefined) return undefined;
  const slack = {
    botToken,
    signingSecret: nonEmpty(env.SLACK_SIGNING_SECRET),
    appToken: nonEmpty(env.SLACK_APP_TOKEN),
    apiUrl: nonEmpty(env.SLACK_API_URL),
    streamRolloverMs: parseRollover(env.SLACK_STREAM_ROLLOVER_SECONDS),
  };
  if (slack.appToken === undefined && slack.signingSecret === undefined) {
    throw new Error(
      'SLACK_BOT_TOKEN is set but neither SLACK_SIGNING_SECRET (HTTP on /slack/events) nor SLACK_APP_TOKEN (Socket Mode) is',
    );
  }
  return slack;
}

/** P14: whole seconds, 1–290 (Slack closes a stream after about 300 s: a later rollover would lose to it). */
function parseRollover(raw: string | undefined): number | undefined {
  const value = nonEmpty(raw);
  if (value === undefined) return undefined;
  const seconds = Number(value);
  if (!Number.isInteger(seconds) || seconds < 1 || seconds > 290) {
    throw new Error(
      `SLACK_STREAM_ROLLOVER_SECONDS must be a whole number of seconds from 1 to 290, not "${value}"`,
    );
  }
  return seconds * 1000;
}

export const databaseDir = (config: Pick<Config, 'dataDir'>): string => path.join(config.dataDir, 'db');
export const workspacesDir = (config: Pick<Config, 'dataDir'>): string =>
  path.join(config.dataDir, 'workspaces');

/** T3: the default is high: model-bound turns are I/O, not CPU. */
export const DEFAULT_CONCURRENCY = 64;

export function parseConcurrency(value: string | undefined): number {
  const text = nonEmpty(value);
  if (text === undefined) return DEFAULT_CONCURRENCY;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) {
    throw new Error(`SUMMON_CONCURRENCY must be a whole number of at least 1, got "${text}"`);
  }
  return n;
}

/** A12: the engine's default; a worker killed mid-turn is noticed after this long. */
export const DEFAULT_DEAD_AFTER_MS = 60_000;

export function parseDeadAfter(value: string | undefined): number {
  const text = nonEmpty(value);
  if (text === undefined) return DEFAULT_DEAD_AFTER_MS;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1000) {
    throw new Error(
      `SUMMON_DEAD_AFTER_MS must be a whole number of milliseconds, at least 1000, got "${text}"`,
    );
  }
  return n;
}

/** P9, P14 (decision): a turn done sooner posts just its reply; a slower one is seen working by then. */
export const DEFAULT_SIGN_OF_LIFE_MS = 300;

export function parseSignOfLife(value: string | undefined): number {
  const text = nonEmpty(value);
  if (text === undefined) return DEFAULT_SIGN_OF_LIFE_MS;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 0 || n > 10_000) {
    throw new Error(
      `SUMMON_SIGN_OF_LIFE_MS must be a whole number of milliseconds from 0 to 10000, got "${text}"`,
    );
  }
  return n;
}

/** P7: an outgoing call outlasts the platform's outages for this long; default a day. */
export const DEFAULT_OUTBOX_GIVE_UP_HOURS = 24;

export function parseOutboxGiveUp(value: string | undefined): number {
  const text = nonEmpty(value);
  const hours = text === undefined ? DEFAULT_OUTBOX_GIVE_UP_HOURS : Number(text);
  if (!Number.isFinite(hours) || hours <= 0) {
    throw new Error(`SUMMON_OUTBOX_GIVE_UP_HOURS must be a positive number of hours, got "${text}"`);
  }
  return Math.round(hours * 60 * 60 * 1000);
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

/** R1: a relay's name is one word (letters, digits, `.`, `_`, `-`): it is written `agent@relay`. */
function parseRelayName(value: string | undefined): string | undefined {
  const name = nonEmpty(value);
  if (name === undefined) return undefined;
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/.test(name)) {
    throw new Error(
      `SUMMON_RELAY_NAME must be one word of letters, digits, ".", "_" or "-" (it is written agent@relay), got "${name}"`,
    );
  }
  return name;
}

function parseRelayRateLimit(value: string | undefined): number {
  const given = nonEmpty(value);
  if (given === undefined) return 30;
  const limit = Number(given);
  if (!Number.isInteger(limit) || limit < 1) {
    throw new Error(
      `SUMMON_RELAY_RATE_LIMIT must be a whole number of notes per 10 minutes (1 or more), got "${given}"`,
    );
  }
  return limit;
}
