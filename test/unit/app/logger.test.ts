import { Writable } from 'node:stream';
import { createLogger, REDACTED_PATHS } from '../../../src/app/logger';

function capture() {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { lines, logger: createLogger({ level: 'debug', destination }) };
}

describe('logger secret redaction', () => {
  const secrets = {
    token: 'xoxb-1111-secret-bot-token',
    password: 'hunter2-password',
    databaseUrl: 'postgres://summon:db-password@db:5432/summon',
    redisUrl: 'redis://:redis-password@cache:6379',
  };

  it('never writes a secret handed to a log call, at the top level or one level down', () => {
    const { lines, logger } = capture();
    logger.info({ ...secrets, config: { ...secrets } }, 'configured');
    logger
      .child({ component: 'slack' })
      .warn({ headers: { authorization: 'Bearer gh-token-123' } }, 'request');
    logger.error({ env: { SLACK_BOT_TOKEN: 'xoxb-env-token', DISCORD_TOKEN: 'discord-env-token' } }, 'env');
    logger.info(
      { config: { models: { anthropicApiKey: 'sk-ant-secret', openaiApiKey: 'sk-openai-secret' } } },
      'models',
    );

    // G3: the gateway's GitHub credentials.
    logger.info(
      { config: { github: { token: 'ghs-config-token', appPrivateKey: '-----BEGIN PRIVATE KEY-----abc' } } },
      'github',
    );
    logger.info({ app: { privateKey: '-----BEGIN PRIVATE KEY-----def' } }, 'app');

    const written = lines.join('');
    expect(written).not.toContain('ghs-config-token');
    expect(written).not.toContain('BEGIN PRIVATE KEY');
    const more = ['gh-token-123', 'xoxb-env-token', 'discord-env-token', 'sk-ant-secret', 'sk-openai-secret'];
    for (const secret of [...Object.values(secrets), ...more]) {
      expect(written).not.toContain(secret);
    }
    expect(written).toContain('[redacted]');
    expect(JSON.parse(lines[1] ?? '{}')).toMatchObject({ component: 'slack', msg: 'request' });
  });

  it('never writes the Slack credentials, as the config holds them or handed alone', () => {
    const { lines, logger } = capture();
    const slack = {
      botToken: 'xoxb-slack-bot',
      appToken: 'xapp-slack-app',
      signingSecret: 'slack-signing-secret',
    };
    logger.info({ config: { slack } }, 'config');
    logger.info({ ...slack }, 'top level');
    logger.info({ credentials: slack }, 'one level down');
    logger.error({ env: { SLACK_APP_TOKEN: 'xapp-env', SLACK_SIGNING_SECRET: 'env-signing' } }, 'env');
    const written = lines.join('');
    for (const secret of [...Object.values(slack), 'xapp-env', 'env-signing'])
      expect(written).not.toContain(secret);
  });
});

describe('logger redaction paths and children', () => {
  /** The object a path names, holding `secret` there: `*.x` one level down under `anyKey`. */
  function holding(path: string, secret: string): Record<string, unknown> {
    const parts = path.split('.').map((part) => (part === '*' ? 'anyKey' : part));
    return parts.reduceRight<unknown>((inner, part) => ({ [part]: inner }), secret) as Record<
      string,
      unknown
    >;
  }

  it('censors every listed path, beside fields that stay as they were', () => {
    const { lines, logger } = capture();
    REDACTED_PATHS.forEach((path, index) => {
      logger.info({ ...holding(path, `secret-${index}-value`), runId: 'r1', nested: { kept: 1 } }, path);
    });
    expect(lines).toHaveLength(REDACTED_PATHS.length);
    lines.forEach((line, index) => {
      expect(line).not.toContain(`secret-${index}-value`);
      expect(line).toContain('[redacted]');
      expect(JSON.parse(line)).toMatchObject({ runId: 'r1', nested: { kept: 1 } });
    });
  });

  it('leaves the caller’s object as it was and keeps an error’s message', () => {
    const { lines, logger } = capture();
    const fields = {
      config: { slack: { botToken: 'xoxb-kept-by-caller' } },
      headers: { authorization: 'b' },
    };
    const error = Object.assign(new Error('the call failed'), { token: 'error-token' });
    logger.warn(fields, 'config');
    logger.error({ err: error }, 'failed');
    expect(fields.config.slack.botToken).toBe('xoxb-kept-by-caller');
    expect(fields.headers.authorization).toBe('b');
    expect(error.token).toBe('error-token');
    expect(lines.join('')).not.toContain('xoxb-kept-by-caller');
    expect(lines.join('')).not.toContain('error-token');
    expect(JSON.parse(lines[1] ?? '{}')).toMatchObject({
      err: { message: 'the call failed', token: '[redacted]' },
    });
  });

  it('censors a child’s bindings and merges a grandchild’s, the later binding winning', () => {
    const { lines, logger } = capture();
    const child = logger.child({ component: 'engine', token: 'bound-token' });
    child.child({ component: 'turn', runId: 'r2' }).info({ ok: true }, 'turn finished');
    child.debug({}, 'from the child');
    // Its first line carries the bindings itself, the next ones come through a pino child.
    child.warn({ token: 'field-token' }, 'again');
    child.error(new Error('it broke'), 'an error');
    logger.child({ component: 'slack' }).error(new Error('its first line'), 'failed at once');
    expect(lines).toHaveLength(5);
    expect(JSON.parse(lines[4] ?? '{}')).toMatchObject({
      component: 'slack',
      err: { message: 'its first line' },
    });
    expect(lines.join('')).not.toContain('bound-token');
    expect(lines.join('')).not.toContain('field-token');
    expect(JSON.parse(lines[2] ?? '{}')).toMatchObject({
      component: 'engine',
      token: '[redacted]',
      msg: 'again',
    });
    expect(JSON.parse(lines[3] ?? '{}')).toMatchObject({ component: 'engine', err: { message: 'it broke' } });
    expect(JSON.parse(lines[0] ?? '{}')).toMatchObject({
      component: 'turn',
      runId: 'r2',
      ok: true,
      token: '[redacted]',
    });
    expect(JSON.parse(lines[1] ?? '{}')).toMatchObject({ component: 'engine', msg: 'from the child' });
  });

  it('writes nothing below its level, through children too', () => {
    const lines: string[] = [];
    const logger = createLogger({
      level: 'info',
      destination: { write: (line: string) => lines.push(line) },
    });
    logger.child({ component: 'slack' }).debug({ eventId: 'e1' }, 'Slack message taken in');
    logger.debug({}, 'hidden');
    logger.child({ component: 'slack' }).info({ eventId: 'e1' }, 'shown');
    expect(lines.map((line) => JSON.parse(line).msg)).toEqual(['shown']);
  });
});
