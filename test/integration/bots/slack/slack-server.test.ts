import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { type RunningServer, startServer } from '../../../../src/app/server';
import { waitFor } from '../../../support/engine-harness';
import { BOT_USER, deliver, eventFrom, SIGNING_SECRET, TEAM } from '../../../support/slack-delivery';
import { SlackWebApiStandIn } from '../../../support/stand-ins/slack-web-api-stand-in';
import { makeTempDir } from '../../../support/temp-dir';
import { openTestDatabase, type TestDatabase } from '../../../support/test-database';

/** `summon serve` with Slack credentials: the real composition, reading the environment. */
describe('Summon’s server with SLACK_BOT_TOKEN', () => {
  let standIn: SlackWebApiStandIn;
  let db: TestDatabase;
  let dataDir: { path: string; remove(): Promise<void> };
  let server: RunningServer | null = null;
  let env: NodeJS.ProcessEnv;

  beforeEach(async () => {
    standIn = new SlackWebApiStandIn({ botUserId: BOT_USER, teamId: TEAM });
    const apiUrl = await standIn.listen();
    // A migrated copy of the template: the server's start finds nothing to migrate (making the
    // schema is the migrations tests' subject, not this one).
    db = await openTestDatabase('postgres');
    await db.database.close();
    dataDir = await makeTempDir();
    env = {
      PORT: '0',
      DATABASE_URL: db.databaseUrl,
      SUMMON_DATA_DIR: dataDir.path,
      SLACK_BOT_TOKEN: standIn.token,
      SLACK_SIGNING_SECRET: SIGNING_SECRET,
      SLACK_API_URL: apiUrl,
      LOG_LEVEL: 'debug',
    };
  });
  afterEach(async () => {
    await server?.close();
    server = null;
    await standIn.close();
    await db.dispose();
    await dataDir.remove();
  });

  const log = () => readFile(path.join(dataDir.path, 'summon.log'), 'utf8').catch(() => '');

  it('serves POST /slack/events on PORT; a refusal in an unlinked team reaches the thread; no secret is logged', async () => {
    server = await startServer(env, process.cwd(), { logToFile: true });
    expect(server.chat?.platforms).toEqual(['slack']);
    const ts = standIn.addPersonMessage('C0GENERAL1', null);
    const url = `http://127.0.0.1:${server.port}/slack/events`;
    const response = await deliver(url, eventFrom('app-mention', { ts }));
    expect(response.status).toBe(200);
    // P1, P8: the team is not linked yet: the person is told so, in the thread.
    await waitFor(async () =>
      standIn.messages.some((m) => m.threadTs === ts && m.text.includes('not linked to a Summon workspace')),
    );
    expect((await deliver(url, eventFrom('app-mention', { ts }), { secret: 'forged' })).status).toBe(401);
    await waitFor(async () => (await log()).includes('Slack message handled'));
    const written = await log();
    expect(written).not.toContain(standIn.token);
    expect(written).not.toContain(SIGNING_SECRET);
  });

  it('an invalid or revoked token: one clear log line, no Slack front end, no retry loop', async () => {
    standIn.revoked = true;
    server = await startServer(env, process.cwd(), { logToFile: true });
    expect(server.chat).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(standIn.calls.map((c) => c.method)).toEqual(['auth.test']);
    const lines = (await log()).split('\n').filter((line) => line.includes('SLACK_BOT_TOKEN'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('token_revoked');
    expect(lines[0]).not.toContain(standIn.token);
    // Summon itself keeps serving.
    const health = await fetch(`http://127.0.0.1:${server.port}/healthz`);
    expect(health.status).toBe(200);
  });

  it('refuses to start with a bot token but neither a signing secret nor an app token', async () => {
    delete env.SLACK_SIGNING_SECRET;
    await expect(startServer(env, process.cwd(), { logToFile: true })).rejects.toThrow(
      /SLACK_SIGNING_SECRET/,
    );
  });

  it('Socket Mode with an app token Slack refuses: one clear log line, no front end, no retry loop', async () => {
    env.SLACK_APP_TOKEN = 'xapp-1-revoked';
    server = await startServer(env, process.cwd(), { logToFile: true });
    expect(server.chat).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(standIn.calls.filter((c) => c.method === 'apps.connections.open')).toHaveLength(1);
    const lines = (await log()).split('\n').filter((line) => line.includes('SLACK_APP_TOKEN'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('invalid_auth');
    expect(await log()).not.toContain('xapp-1-revoked');
  });
});
