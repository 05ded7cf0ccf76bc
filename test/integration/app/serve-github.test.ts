import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { type ChatFrontEnds, startChatFrontEnds } from '../../../src/app/chat-front-ends';
import { createLogger } from '../../../src/app/logger';
import { openRuntime, type Runtime } from '../../../src/app/runtime';
import { SUMMON_MARKER } from '../../../src/bots/github';
import { loadConfig } from '../../../src/config/config';
import { parseWorkspaceFile } from '../../../src/core/workspace/parse-workspace-file';
import { waitFor } from '../../support/engine-harness';
import { replies, ScriptedRunner } from '../../support/scripted-runner';
import { GitHubDeliverer, payloads } from '../../support/stand-ins/github/github-deliveries';
import { GitHubIssuesStandIn } from '../../support/stand-ins/github/github-issues-stand-in';
import { makeTempDir } from '../../support/temp-dir';
import { openTestDatabase, type TestDatabase } from '../../support/test-database';

const SECRET = 'whsec-serve-test';
const TOKEN = 'ghp_serveTestToken';
const REPO = 'acme/api';

/** P19: Summon as it runs: GITHUB_WEBHOOK_SECRET and GITHUB_TOKEN turn the GitHub front end on. */
describe('P19: the GitHub front end in a Summon process (GITHUB_WEBHOOK_SECRET + GITHUB_TOKEN)', () => {
  let standIn: GitHubIssuesStandIn;
  let db: TestDatabase;
  let dataDir: Awaited<ReturnType<typeof makeTempDir>>;
  let runtime: Runtime;
  let chat: ChatFrontEnds | null = null;
  let server: Server;

  beforeEach(async () => {
    // With GITHUB_TOKEN Summon writes as that token's account: a person's, not a bot.
    standIn = await new GitHubIssuesStandIn({ [TOKEN]: { login: 'ops-account', bot: false } }, [
      REPO,
    ]).start();
    standIn.permissions.set(`${REPO}\ndana-gh`, 'write');
    db = await openTestDatabase('postgres');
    dataDir = await makeTempDir();
  });
  afterEach(async () => {
    await chat?.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await runtime.close();
    await standIn.close();
    await db.dispose();
    await dataDir.remove();
  });

  it('P19, P6, P10: an unsigned delivery is 401; a signed comment on a bound repository starts a run; Summon’s own comment, delivered back, starts nothing', async () => {
    const config = loadConfig(
      {
        GITHUB_WEBHOOK_SECRET: SECRET,
        GITHUB_TOKEN: TOKEN,
        GITHUB_API_URL: standIn.url,
        DATABASE_URL: db.databaseUrl,
        SUMMON_DATA_DIR: dataDir.path,
        SUMMON_SANDBOX: 'off',
      },
      dataDir.path,
    );
    expect(config.github.webhookSecret).toBe(SECRET);
    runtime = await openRuntime(
      config,
      createLogger({
        level: 'debug',
        destination: new Writable({
          write(chunk: Buffer, _encoding, done) {
            if (process.env.DEBUG_GH) process.stderr.write(chunk);
            done();
          },
        }),
      }),
    );
    await runtime.workspaces.apply(
      parseWorkspaceFile(`
workspace: acme
members:
  - { nickname: dana, role: approver, github: dana-gh }
spaces:
  - { name: backend, participants: [engineer, dana], repos: [${REPO}] }
`),
    );
    // The run's checkout of acme/api fails here (no git gateway listening): the runs are what counts.
    const runner = new ScriptedRunner({ engineer: replies('Done.') });
    chat = await startChatFrontEnds(runtime, { runners: () => runner });
    expect(chat?.platforms).toEqual(['github']);
    expect(chat?.githubEvents).not.toBeNull();
    server = createServer((request, response) => {
      if (chat?.handleHttp(request, response) !== true) {
        response.writeHead(404);
        response.end();
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/github/webhooks`;
    const deliverer = new GitHubDeliverer(url, SECRET);

    const issue = standIn.open(REPO, 'Broken login');
    const asked = standIn.addComment({
      kind: 'issue',
      repo: REPO,
      number: issue.number,
      inReplyTo: null,
      body: '@engineer fix it',
      login: 'dana-gh',
      bot: false,
    });
    const sent = await deliverer.send(
      'issue_comment',
      payloads.issueComment(REPO, issue.number, asked.id, { login: 'dana-gh' }, asked.body),
    );
    expect(sent.status).toBe(202);
    const runs = () =>
      runtime.store.transaction((tx) => tx.runs.listByStatus(['queued', 'running', 'succeeded', 'failed']));
    await waitFor(async () => (await runs()).length === 1, 20_000);
    expect(
      (
        await deliverer.send(
          'issue_comment',
          payloads.issueComment(REPO, issue.number, 5, { login: 'dana-gh' }, 'x'),
          { signature: 'none' },
        )
      ).status,
    ).toBe(401);

    // P10: with GITHUB_TOKEN, GitHub reports Summon's comments as that account, a person's:
    // the marker says whose they are.
    const own = standIn.addComment({
      kind: 'issue',
      repo: REPO,
      number: issue.number,
      inReplyTo: null,
      body: `**engineer**\n\n@engineer again\n\n${SUMMON_MARKER}`,
      login: 'ops-account',
      bot: false,
    });
    const echo = payloads.issueComment(REPO, issue.number, own.id, { login: 'ops-account' }, own.body);
    expect((await deliverer.send('issue_comment', echo)).status).toBe(202);
    // The pipe is live: the next person's comment gets through, after the echo in the thread's order.
    const next = payloads.issueComment(
      REPO,
      issue.number,
      own.id + 1,
      { login: 'dana-gh' },
      '@engineer and now?',
    );
    expect((await deliverer.send('issue_comment', next)).status).toBe(202);
    await waitFor(async () => (await runs()).length === 2, 20_000);
    expect((await runs()).length).toBe(2);
  });
});
