import { Writable } from 'node:stream';
import { createLogger } from '../../../src/app/logger';

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
