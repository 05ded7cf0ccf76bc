import { generateKeyPairSync } from 'node:crypto';
import { chmod, mkdir, symlink } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { BubblewrapLauncher } from '../../../src/adapters/sandbox/bubblewrap-launcher';
import { FairSemaphore } from '../../../src/adapters/sandbox/fair-semaphore';
import { checkSandbox } from '../../../src/app/doctor/core-checks';
import { runSummon } from '../../support/run-summon';
import { AnthropicStandIn } from '../../support/stand-ins/anthropic-stand-in';
import { DiscordStandIn } from '../../support/stand-ins/discord/discord-stand-in';
import { GitHubApiStandIn } from '../../support/stand-ins/github-api-stand-in';
import { SlackWebApiStandIn } from '../../support/stand-ins/slack-web-api-stand-in';
import { makeTempDir } from '../../support/temp-dir';
import { openTestDatabase, type TestDatabase } from '../../support/test-database';

const ACME = path.join(__dirname, '../../fixtures/workspaces/acme.yaml');
const redisUrl = () => process.env.SUMMON_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const SECRETS = {
  anthropic: 'sk-ant-doctor-secret-1',
  slackBot: 'xoxb-doctor-secret-2',
  slackApp: 'xapp-doctor-secret-3',
  discord: 'discord-doctor-secret-4',
};

async function summon(env: NodeJS.ProcessEnv, ...argv: string[]) {
  return runSummon(argv, { env: { LOG_LEVEL: 'silent', ...env }, cwd: env.SUMMON_DATA_DIR ?? process.cwd() });
}

/** The report's line for a check, e.g. `line(out, 'redis')`. */
const line = (stdout: string, name: string): string =>
  stdout.split('\n').find((l) => l.slice(6).startsWith(`${name}:`)) ?? `(no line for ${name})`;

describe('summon doctor', () => {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
  let db: TestDatabase;
  let anthropic: AnthropicStandIn;
  let slack: SlackWebApiStandIn;
  let slackUrl: string;
  let discord: DiscordStandIn;
  let github: GitHubApiStandIn;
  let publicSite: Server;
  let publicUrl: string;
  let dataDir: Awaited<ReturnType<typeof makeTempDir>>;
  let binDir: string;

  beforeAll(async () => {
    dataDir = await makeTempDir();
    // The fixture's CLI agent (bob) runs `claude`: the fake Claude Code stands in for it on PATH.
    binDir = path.join(dataDir.path, 'bin');
    await mkdir(binDir);
    const fakeClaude = path.join(__dirname, '../../support/stand-ins/fake-claude.js');
    await chmod(fakeClaude, 0o755);
    await symlink(fakeClaude, path.join(binDir, 'claude'));
    db = await openTestDatabase('postgres');
    anthropic = await AnthropicStandIn.start({
      apiKey: SECRETS.anthropic,
      reply: () => ({ kind: 'stream', blocks: [{ type: 'text', chunks: ['ok'] }] }),
    });
    slack = new SlackWebApiStandIn({ token: SECRETS.slackBot, appToken: SECRETS.slackApp });
    slackUrl = await slack.listen();
    discord = await new DiscordStandIn().start();
    discord.token = SECRETS.discord;
    github = new GitHubApiStandIn({ id: 4242, publicKeyPem: publicKey, installations: { 'acme/api': 777 } });
    await github.start();
    publicSite = createServer((req, res) => {
      res.writeHead(req.url === '/healthz' ? 200 : 404);
      res.end();
    });
    await new Promise<void>((resolve) => publicSite.listen(0, '127.0.0.1', resolve));
    publicUrl = `http://127.0.0.1:${(publicSite.address() as AddressInfo).port}`;
    // A workspace whose space binds acme/api (and whose agents use the default model).
    const applied = await summon(
      { SUMMON_DATA_DIR: dataDir.path, DATABASE_URL: db.databaseUrl },
      'apply',
      ACME,
    );
    expect(applied.code).toBe(0);
    // P24: the workspace admits people by a Discord role, so doctor checks the members intent.
    const store = db.database.store;
    const acme = await store.transaction((tx) => tx.workspaces.findBySlug('acme'));
    if (acme === null) throw new Error('acme was not applied');
    await store.inWorkspace(acme.id, (tx) =>
      tx.accessGroups.replace(acme.id, [
        { group: { platform: 'discord', kind: 'role', id: '123456789012345678' }, role: 'member' },
      ]),
    );
  });

  afterAll(async () => {
    await Promise.all([anthropic.close(), slack.close(), discord.close(), github.close()]);
    await new Promise<void>((resolve) => publicSite.close(() => resolve()));
    await db.dispose();
    await dataDir.remove();
  });

  const working = (): NodeJS.ProcessEnv => ({
    SUMMON_DATA_DIR: dataDir.path,
    DATABASE_URL: db.databaseUrl,
    REDIS_URL: redisUrl(),
    ANTHROPIC_API_KEY: SECRETS.anthropic,
    ANTHROPIC_BASE_URL: anthropic.url,
    SLACK_BOT_TOKEN: SECRETS.slackBot,
    SLACK_APP_TOKEN: SECRETS.slackApp,
    SLACK_API_URL: slackUrl,
    DISCORD_TOKEN: SECRETS.discord,
    DISCORD_API_URL: discord.apiUrl,
    GITHUB_APP_ID: '4242',
    GITHUB_APP_PRIVATE_KEY: privateKey,
    GITHUB_API_URL: github.url,
    SUMMON_PUBLIC_URL: publicUrl,
    PATH: `${binDir}${path.delimiter}${process.env.PATH ?? ''}`,
  });

  const expectNoSecrets = (text: string) => {
    for (const secret of Object.values(SECRETS)) expect(text).not.toContain(secret);
    expect(text).not.toContain('PRIVATE KEY');
  };

  it('a working set-up: one ok line per check, exit 0, no secret printed', async () => {
    const { code, stdout } = await summon(working(), 'doctor');
    expectNoSecrets(stdout);
    expect(line(stdout, 'database')).toMatch(
      /^ok {4}database: PostgreSQL \(DATABASE_URL\), migrations current$/,
    );
    expect(line(stdout, 'redis')).toMatch(/^ok {4}redis: REDIS_URL answers$/);
    expect(line(stdout, 'model anthropic:claude-sonnet-4-6')).toMatch(/^ok {4}.*: the model answered$/);
    expect(line(stdout, 'agent bob')).toMatch(/^ok {4}agent bob: CLI agent: claude found at /);
    expect(line(stdout, 'slack bot token')).toMatch(/^ok {4}slack bot token: bot summon in team Acme$/);
    expect(line(stdout, 'slack app token')).toMatch(/^ok {4}slack app token: Socket Mode/);
    expect(line(stdout, 'discord token')).toMatch(/^ok {4}discord token: bot Summon$/);
    expect(line(stdout, 'discord intents')).toMatch(
      /^ok {4}discord intents: the message-content intent is on$/,
    );
    expect(line(stdout, 'discord members intent')).toMatch(
      /^ok {4}discord members intent: the server-members intent is on/,
    );
    expect(line(stdout, 'github acme/api')).toMatch(
      /^ok {4}github acme\/api: the GitHub App has an installation token/,
    );
    expect(line(stdout, 'sandbox')).toMatch(/^ok {4}sandbox: bubblewrap/);
    expect(line(stdout, 'public url')).toMatch(/^ok {4}public url: .*\/healthz answers$/);
    expect(stdout).toMatch(/\n\d+ ok, 0 warnings, 0 failures\n$/);
    expect(code).toBe(0);
  });

  it('a broken set-up: every check’s failure line says what to do; exit 1; secrets stay masked', async () => {
    discord.applicationFlags = 0;
    try {
      const { code, stdout } = await summon(
        {
          ...working(),
          REDIS_URL: 'redis://127.0.0.1:6399',
          ANTHROPIC_API_KEY: 'sk-ant-wrong-key-5',
          SLACK_BOT_TOKEN: 'xoxb-wrong-6',
          SLACK_APP_TOKEN: 'xapp-wrong-7',
          GITHUB_APP_ID: '4242',
          SUMMON_PUBLIC_URL: 'http://127.0.0.1:9',
          PATH: '/nowhere',
        },
        'doctor',
      );
      expect(stdout).not.toContain('sk-ant-wrong-key-5');
      expect(stdout).not.toContain('xoxb-wrong-6');
      expect(line(stdout, 'redis')).toMatch(
        /^FAIL {2}redis: REDIS_URL does not answer \(.*ECONNREFUSED.*\) → start Redis or correct REDIS_URL$/,
      );
      expect(line(stdout, 'model anthropic:claude-sonnet-4-6')).toMatch(
        /^FAIL {2}.*→ check the key and base URL/,
      );
      expect(line(stdout, 'slack bot token')).toMatch(
        /^FAIL {2}slack bot token: auth.test refused SLACK_BOT_TOKEN \(invalid_auth\) → copy the Bot User OAuth Token/,
      );
      expect(line(stdout, 'slack app token')).toMatch(
        /^FAIL {2}slack app token: apps.connections.open refused SLACK_APP_TOKEN \(invalid_auth\) → create an app-level token/,
      );
      expect(line(stdout, 'discord intents')).toMatch(
        /^FAIL {2}discord intents: the privileged message-content intent is off.* → turn on Message Content Intent/,
      );
      expect(line(stdout, 'discord members intent')).toMatch(
        /^FAIL {2}discord members intent: .*access.* → turn on Server Members Intent/,
      );
      expect(line(stdout, 'public url')).toMatch(
        /^FAIL {2}public url: http:\/\/127.0.0.1:9\/healthz is not reachable \(.*\) → start Summon/,
      );
      expect(code).toBe(1);
    } finally {
      discord.applicationFlags = 1 << 19;
    }
  });

  it('a wrong Discord token, a repository the GitHub App is not installed on, the sandbox off', async () => {
    const other = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
      publicKeyEncoding: { type: 'spki', format: 'pem' },
    });
    const { code, stdout } = await summon(
      {
        ...working(),
        DISCORD_TOKEN: 'not-the-bot-token',
        GITHUB_APP_PRIVATE_KEY: other.privateKey,
        SUMMON_SANDBOX: 'off',
      },
      'doctor',
    );
    expect(line(stdout, 'discord token')).toMatch(
      /^FAIL {2}discord token: Discord refused DISCORD_TOKEN \(.*\) → reset the token/,
    );
    expect(line(stdout, 'github acme/api')).toMatch(
      /^FAIL {2}github acme\/api: no access \(.*\) → install the GitHub App \(id 4242\) on acme\/api/,
    );
    expect(line(stdout, 'sandbox')).toMatch(
      /^warn {2}sandbox: off \(SUMMON_SANDBOX=off\).* → unset SUMMON_SANDBOX/,
    );
    expect(stdout).not.toContain('PRIVATE KEY');
    expect(code).toBe(1);
  });

  it('an unreachable database, and a fresh one whose migrations have not run', async () => {
    const away = await summon(
      { SUMMON_DATA_DIR: dataDir.path, DATABASE_URL: 'postgres://postgres:pw-doctor-8@127.0.0.1:5499/none' },
      'doctor',
    );
    expect(line(away.stdout, 'database')).toMatch(
      /^FAIL {2}database: PostgreSQL \(DATABASE_URL\) cannot be opened \(.*\) → start PostgreSQL or correct DATABASE_URL$/,
    );
    expect(line(away.stdout, 'models')).toMatch(/^warn {2}models: not checked: the database is not ready/);
    expect(away.stdout).not.toContain('pw-doctor-8');
    expect(away.code).toBe(1);

    const fresh = await makeTempDir();
    try {
      const { code, stdout } = await summon({ SUMMON_DATA_DIR: fresh.path }, 'doctor');
      expect(line(stdout, 'database')).toMatch(
        /^FAIL {2}database: PGlite in .*: migrations not run: InitialSchema\d+.* → run `summon db migrate`$/,
      );
      expect(line(stdout, 'slack')).toMatch(/^ok {4}slack: not configured/);
      expect(code).toBe(1);
    } finally {
      await fresh.remove();
    }
  });

  it('X4: a sandbox that cannot start fails with the sentence that says how to fix it', async () => {
    const launcher = new BubblewrapLauncher(new FairSemaphore(1), { bwrap: '/nonexistent/bwrap' });
    const [result] = await checkSandbox(launcher);
    expect(result).toMatchObject({
      name: 'sandbox',
      status: 'fail',
      detail: 'unavailable: agents’ commands will be refused',
    });
    expect(result?.fix).toMatch(/^The sandbox cannot start: .*SUMMON_SANDBOX=off/);
  });
});
