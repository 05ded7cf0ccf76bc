import { startChatFrontEnds } from '../../../src/app/chat-front-ends';
import { createLogger } from '../../../src/app/logger';
import { openRuntime, type Runtime } from '../../../src/app/runtime';
import { loadConfig } from '../../../src/config/config';
import { BOT_USER, TEAM } from '../../support/slack-delivery';
import { SlackWebApiStandIn } from '../../support/stand-ins/slack-web-api-stand-in';
import { makeTempDir } from '../../support/temp-dir';
import { openTestDatabase, type TestDatabase } from '../../support/test-database';

/** A worker posts to Slack through the Web API and listens to nothing: no Socket Mode connection. */
describe('Slack in a worker process (SUMMON_ROLE=worker)', () => {
  let standIn: SlackWebApiStandIn;
  let db: TestDatabase;
  let dataDir: Awaited<ReturnType<typeof makeTempDir>>;
  let runtime: Runtime;

  beforeEach(async () => {
    standIn = new SlackWebApiStandIn({
      botUserId: BOT_USER,
      teamId: TEAM,
      appToken: 'xapp-1-A0APP00001-test',
    });
    db = await openTestDatabase('postgres');
    dataDir = await makeTempDir();
  });
  afterEach(async () => {
    await runtime.close();
    await standIn.close();
    await db.dispose();
    await dataDir.remove();
  });

  it('with SLACK_APP_TOKEN, a worker checks the bot token and opens no Socket Mode connection', async () => {
    const apiUrl = await standIn.listen();
    const config = loadConfig(
      {
        SLACK_BOT_TOKEN: standIn.token,
        SLACK_APP_TOKEN: 'xapp-1-A0APP00001-test',
        SLACK_API_URL: apiUrl,
        DATABASE_URL: db.databaseUrl,
        SUMMON_DATA_DIR: dataDir.path,
        SUMMON_ROLE: 'worker',
        SUMMON_SANDBOX: 'off',
      },
      dataDir.path,
    );
    runtime = await openRuntime(config, createLogger({ level: 'silent' }));
    const worker = await startChatFrontEnds(runtime, {
      runners: () => {
        throw new Error('no turn runs here');
      },
    });
    if (worker === null) throw new Error('the worker did not get its Slack platform');
    expect(worker.platforms).toEqual(['slack']);
    await worker.close();
    // `apps.connections.open` is how Socket Mode starts: a worker never asks for one.
    expect(standIn.calls.map((c) => c.method)).toEqual(['auth.test']);
  });
});
