import { startChatFrontEnds } from '../../../src/app/chat-front-ends';
import { createLogger } from '../../../src/app/logger';
import { openRuntime, type Runtime } from '../../../src/app/runtime';
import { loadConfig } from '../../../src/config/config';
import { BOT_TOKEN, DiscordStandIn } from '../../support/stand-ins/discord/discord-stand-in';
import { makeTempDir } from '../../support/temp-dir';
import { openTestDatabase, type TestDatabase } from '../../support/test-database';

/** Exactly one process holds the Discord gateway session: a worker talks to Discord over REST only. */
describe('Discord in a worker process (SUMMON_ROLE=worker)', () => {
  let standIn: DiscordStandIn;
  let db: TestDatabase;
  let dataDir: Awaited<ReturnType<typeof makeTempDir>>;
  let runtime: Runtime;

  beforeEach(async () => {
    standIn = await new DiscordStandIn().start();
    db = await openTestDatabase('postgres');
    dataDir = await makeTempDir();
  });
  afterEach(async () => {
    await runtime.close();
    await standIn.close();
    await db.dispose();
    await dataDir.remove();
  });

  const open = async (role: string) => {
    const config = loadConfig(
      {
        DISCORD_TOKEN: BOT_TOKEN,
        DISCORD_API_URL: standIn.apiUrl,
        DATABASE_URL: db.databaseUrl,
        SUMMON_DATA_DIR: dataDir.path,
        SUMMON_ROLE: role,
        SUMMON_SANDBOX: 'off',
      },
      dataDir.path,
    );
    runtime = await openRuntime(config, createLogger({ level: 'silent' }));
    return startChatFrontEnds(runtime, {
      runners: () => {
        throw new Error('no turn runs here');
      },
    });
  };

  it('a worker reads its application over REST and opens no gateway session; `all` opens one', async () => {
    const worker = await open('worker');
    if (worker === null) throw new Error('the worker did not get its Discord platform');
    expect(worker.platforms).toEqual(['discord']);
    expect(standIn.calls.map((c) => `${c.method} ${c.path}`)).toEqual(['GET /api/v10/applications/@me']);
    await worker.close();
    await runtime.close();

    const all = await open('all');
    if (all === null) throw new Error('the Discord front end did not start');
    expect(standIn.calls.map((c) => `${c.method} ${c.path}`)).toContain('GET /api/v10/gateway/bot');
    await all.close();
  });

  it('a worker whose token Discord refuses gets no Discord platform', async () => {
    standIn.token = 'another-token';
    expect(await open('worker')).toBeNull();
    expect(standIn.gateway.identifies).toEqual([]);
  });
});
