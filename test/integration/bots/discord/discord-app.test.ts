import { Writable } from 'node:stream';
import { startChatFrontEnds } from '../../../../src/app/chat-front-ends';
import { createLogger } from '../../../../src/app/logger';
import { openRuntime, type Runtime } from '../../../../src/app/runtime';
import { loadConfig } from '../../../../src/config/config';
import { waitFor } from '../../../support/engine-harness';
import { BOT_TOKEN, DiscordStandIn } from '../../../support/stand-ins/discord/discord-stand-in';
import { makeTempDir } from '../../../support/temp-dir';
import { openTestDatabase, type TestDatabase } from '../../../support/test-database';

/** GUILDS | GUILD_MESSAGES | DIRECT_MESSAGES | MESSAGE_CONTENT (discord-api-types GatewayIntentBits). */
const INTENTS = 1 | (1 << 9) | (1 << 12) | (1 << 15);

describe('summon start/serve with DISCORD_TOKEN', () => {
  let standIn: DiscordStandIn;
  let db: TestDatabase;
  let dataDir: Awaited<ReturnType<typeof makeTempDir>>;
  let runtime: Runtime;
  let log = '';

  const open = async (token: string) => {
    const config = loadConfig(
      {
        DISCORD_TOKEN: token,
        DISCORD_API_URL: standIn.apiUrl,
        DATABASE_URL: db.databaseUrl,
        SUMMON_DATA_DIR: dataDir.path,
      },
      dataDir.path,
    );
    const logger = createLogger({
      level: 'debug',
      destination: new Writable({
        write(chunk: Buffer, _encoding, done) {
          log += chunk.toString();
          done();
        },
      }),
    });
    logger.info({ config }, 'configuration');
    runtime = await openRuntime(config, logger);
    return startChatFrontEnds(runtime);
  };

  beforeEach(async () => {
    log = '';
    standIn = await new DiscordStandIn().start();
    // A migrated copy of the template: the start finds nothing to migrate.
    db = await openTestDatabase('postgres');
    dataDir = await makeTempDir();
  });
  afterEach(async () => {
    await runtime.close();
    await standIn.close();
    await db.dispose();
    await dataDir.remove();
  });

  it('P1: connects with the token through GET /gateway/bot and identifies with guilds, guild messages, message content and DMs', async () => {
    const chats = await open(BOT_TOKEN);
    if (chats === null) throw new Error('the Discord front end did not start');
    try {
      expect(chats.platforms).toEqual(['discord']);
      await waitFor(async () => standIn.gateway.identifies.length === 1);
      expect(standIn.gateway.identifies[0]?.intents).toBe(INTENTS);
      expect(standIn.calls[0]).toMatchObject({ method: 'GET', path: '/api/v10/gateway/bot', status: 200 });
      await waitFor(async () => log.includes('Discord back-fill done'));
    } finally {
      await chats.close();
    }
    // The token is a secret: not in any log line, though the whole configuration was logged.
    expect(log).toContain('"discord":{"token":"[redacted]"');
    expect(log).not.toContain(BOT_TOKEN);
  });

  it('an invalid token is one clear log line, and that connection stops without retrying', async () => {
    const wrong = 'not.the.right.token';
    const chats = await open(wrong);
    expect(chats).toBeNull();
    {
      await new Promise((resolve) => setTimeout(resolve, 1500));
      const refused = log.split('\n').filter((line) => line.includes('invalid token'));
      expect(refused).toHaveLength(1);
      expect(refused[0]).toContain('DISCORD_TOKEN');
      expect(standIn.calls).toEqual([
        expect.objectContaining({ method: 'GET', path: '/api/v10/gateway/bot', status: 401 }),
      ]);
      expect(standIn.gateway.log).toEqual([]);
    }
    expect(log).not.toContain(wrong);
  });
});
