import pino, { type DestinationStream } from 'pino';
import type { Logger } from '../core/ports/logger';

/**
 * Paths that may carry a secret anywhere in a log object. pino replaces them before the line
 * is written, so a token handed to a log call by mistake never reaches the log.
 */
export const REDACTED_PATHS = [
  'token',
  'password',
  'secret',
  'authorization',
  'databaseUrl',
  'redisUrl',
  '*.token',
  '*.password',
  '*.secret',
  '*.authorization',
  '*.databaseUrl',
  '*.redisUrl',
  'headers.authorization',
  'headers.cookie',
  'anthropicApiKey',
  'openaiApiKey',
  '*.anthropicApiKey',
  '*.openaiApiKey',
  'config.models.anthropicApiKey',
  'config.models.openaiApiKey',
  'config.databaseUrl',
  'botToken',
  'appToken',
  'signingSecret',
  '*.botToken',
  '*.appToken',
  '*.signingSecret',
  'config.slack.botToken',
  'config.slack.appToken',
  'config.slack.signingSecret',
  'config.discord.token',
  'discord.token',
  'config.redisUrl',
  'env.DATABASE_URL',
  'env.REDIS_URL',
  'env.SLACK_BOT_TOKEN',
  'env.SLACK_APP_TOKEN',
  'env.SLACK_SIGNING_SECRET',
  'env.DISCORD_TOKEN',
  'env.GITHUB_TOKEN',
  'env.GITHUB_APP_PRIVATE_KEY',
  'config.github.token',
  'config.github.appPrivateKey',
  'github.token',
  'github.appPrivateKey',
  // P19: the secret GitHub's deliveries are verified with.
  'env.GITHUB_WEBHOOK_SECRET',
  'config.github.webhookSecret',
  'github.webhookSecret',
  'webhookSecret',
  '*.webhookSecret',
  'privateKey',
  '*.privateKey',
  // E5: the key that encrypts stored OAuth tokens.
  'secretKey',
  '*.secretKey',
  'env.SUMMON_SECRET_KEY',
  // E5: OAuth tokens and client secrets, should one be handed to a log call.
  'access_token',
  'refresh_token',
  'client_secret',
  '*.access_token',
  '*.refresh_token',
  '*.client_secret',
  'env.ANTHROPIC_API_KEY',
  'env.OPENAI_API_KEY',
];

export function createLogger(options: { level: string; destination?: DestinationStream }): Logger {
  const base = pino(
    {
      level: options.level,
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      base: { app: 'summon' },
    },
    options.destination ?? pino.destination(2),
  );
  return wrap(base);
}

function wrap(log: pino.Logger): Logger {
  return {
    debug: (fields, message) => log.debug(fields, message),
    info: (fields, message) => log.info(fields, message),
    warn: (fields, message) => log.warn(fields, message),
    error: (fields, message) => log.error(fields, message),
    child: (bindings) => wrap(log.child(bindings)),
  };
}
