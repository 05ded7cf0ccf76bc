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

const CENSOR = '[redacted]';

/**
 * REDACTED_PATHS compiled once: a key censored at the top level, one level down under any key
 * (`*.token`), or under one named path (`config.models.anthropicApiKey`). A log object is copied
 * only where a secret sits; the caller's object is never changed. pino's own `redact` option does
 * the same but rebuilds and walks every path for every field of every line and every child's
 * bindings, which the reply path pays on each of its lines (O6).
 */
class Redactor {
  private readonly top = new Set<string>();
  private readonly anyChild = new Set<string>();
  private readonly below = new Map<string, string[][]>();

  constructor(paths: readonly string[]) {
    for (const path of paths) {
      const [first = '', ...rest] = path.split('.');
      if (rest.length === 0) this.top.add(first);
      else if (first === '*' && rest.length === 1) this.anyChild.add(rest[0] ?? '');
      else if (first !== '*') this.below.set(first, [...(this.below.get(first) ?? []), rest]);
      else throw new Error(`A redaction path this logger cannot apply: ${path}`);
    }
  }

  /** `fields` itself when it holds no secret, else a copy with each secret censored. */
  redact<T extends object>(fields: T): T {
    let out: Record<string, unknown> | null = null;
    const source = fields as Record<string, unknown>;
    for (const key in source) {
      if (!Object.hasOwn(source, key)) continue;
      const value = source[key];
      let redacted = value;
      if (this.top.has(key)) redacted = value === undefined ? value : CENSOR;
      else if (isRecord(value)) redacted = this.redactChild(value, this.below.get(key));
      if (redacted === value) continue;
      out ??= copyOf(source);
      out[key] = redacted;
    }
    return (out ?? fields) as T;
  }

  private redactChild(value: Record<string, unknown>, paths: string[][] | undefined): unknown {
    let out = value;
    for (const key in value) {
      if (Object.hasOwn(value, key) && this.anyChild.has(key)) out = censored(out, value, key);
    }
    for (const path of paths ?? []) out = censorPath(out, value, path, 0);
    return out;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `out` (a copy of `original` already, or `original` itself) with `key` censored, copied once. */
function censored(
  out: Record<string, unknown>,
  original: Record<string, unknown>,
  key: string,
): Record<string, unknown> {
  const copy = out === original ? copyOf(original) : out;
  copy[key] = CENSOR;
  return copy;
}

function censorPath(
  out: Record<string, unknown>,
  original: Record<string, unknown>,
  path: string[],
  at: number,
): Record<string, unknown> {
  const key = path[at] ?? '';
  if (!Object.hasOwn(out, key)) return out;
  if (at === path.length - 1) return censored(out, original, key);
  const inner = out[key];
  if (!isRecord(inner)) return out;
  const redacted = censorPath(inner, inner, path, at + 1);
  if (redacted === inner) return out;
  const copy = out === original ? copyOf(original) : out;
  copy[key] = redacted;
  return copy;
}

/** A shallow copy keeping the prototype, and an error's message and stack (pino's `err` serializer reads them). */
function copyOf(value: Record<string, unknown>): Record<string, unknown> {
  const copy = Object.assign(Object.create(Object.getPrototypeOf(value)) as Record<string, unknown>, value);
  if (value instanceof Error) Object.assign(copy, { message: value.message, stack: value.stack });
  return copy;
}

const redactor = new Redactor(REDACTED_PATHS);

export function createLogger(options: { level: string; destination?: DestinationStream }): Logger {
  const base = pino(
    { level: options.level, base: { app: 'summon' } },
    options.destination ?? pino.destination(2),
  );
  return wrap(base);
}

type Level = 'debug' | 'info' | 'warn' | 'error';

/**
 * Every object reaches pino through the redactor. A child logger costs nothing until it writes a
 * line its level lets through: the reply path makes several a reply, most of which write nothing
 * at `info`; its first line carries the bindings itself, and only one that writes more becomes a
 * pino child (whose making serializes each binding).
 */
function wrap(log: pino.Logger): Logger {
  const write = (level: Level) => (fields: object, message: string) => {
    if (log.isLevelEnabled(level)) log[level](redactor.redact(fields), message);
  };
  return {
    debug: write('debug'),
    info: write('info'),
    warn: write('warn'),
    error: write('error'),
    child: (bindings) => lazyChild(log, bindings),
  };
}

function lazyChild(parent: pino.Logger, bindings: Record<string, unknown>): Logger {
  return new LazyChild(parent, bindings);
}

/** `lazyChild`'s logger: its methods on the prototype, so making one allocates one object. */
class LazyChild implements Logger {
  private made: Logger | null = null;
  private written = false;

  constructor(
    private readonly parent: pino.Logger,
    private readonly bindings: Record<string, unknown>,
  ) {}

  debug(fields: object, message: string): void {
    this.write('debug', fields, message);
  }
  info(fields: object, message: string): void {
    this.write('info', fields, message);
  }
  warn(fields: object, message: string): void {
    this.write('warn', fields, message);
  }
  error(fields: object, message: string): void {
    this.write('error', fields, message);
  }
  child(more: Record<string, unknown>): Logger {
    return new LazyChild(this.parent, Object.assign({}, this.bindings, more));
  }

  private write(level: Level, fields: object, message: string): void {
    const { parent } = this;
    if (!parent.isLevelEnabled(level)) return;
    if (this.made === null && !this.written) {
      this.written = true;
      const own = fields instanceof Error ? { err: fields } : fields;
      parent[level](redactor.redact(Object.assign({}, this.bindings, own)), message);
      return;
    }
    this.made ??= wrap(parent.child(redactor.redact(this.bindings)));
    this.made[level](fields, message);
  }
}
