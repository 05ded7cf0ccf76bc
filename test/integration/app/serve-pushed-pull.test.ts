import { execFileSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { pullRequestCardText } from '../../../src/core/pull-requests/pull-request-card';
import { type ConsoleWorld, openConsoleWorld } from '../../support/console-world';
import { waitFor } from '../../support/engine-harness';
import { CHANNEL } from '../../support/slack-delivery';
import { GitHubChecksStandIn } from '../../support/stand-ins/github/github-checks-stand-in';
import { GitHubIssuesStandIn } from '../../support/stand-ins/github/github-issues-stand-in';
import { GitHubPullsStandIn } from '../../support/stand-ins/github/github-pulls-stand-in';
import { GitHubApiStandIn } from '../../support/stand-ins/github-api-stand-in';
import { GitHubGitStandIn } from '../../support/stand-ins/github-git-stand-in';
import { makeTempDir } from '../../support/temp-dir';

const REPO = 'acme/widgets';
const BRANCH = 'health-check';
const GITHUB_TOKEN = 'ghs_servePushedPullGatewayToken5150';
const APP_ID = '4343';

/**
 * P21, P22 as `summon serve` wires them (`startServer`, PORT 0): Slack on its Web API stand-in,
 * the git gateway on the git stand-in, GitHub's REST API on the issues stand-in with its pull
 * requests and checks, a model that pushes through the gateway. Under test is what the server
 * joins: the gateway's accepted push reaching the lookup of the branch's pull requests.
 */
describe('P21, P22: `summon serve`: a Slack turn’s push to an open pull request’s branch', () => {
  let tmp: Awaited<ReturnType<typeof makeTempDir>>;
  let bare: string;
  let upstream: GitHubGitStandIn;
  let api: GitHubIssuesStandIn;
  /** The accounts the issues stand-in knows, by token (the App's are added as they are minted). */
  let accounts: Record<string, { login: string; bot: boolean }>;
  let checks: GitHubChecksStandIn;
  let pulls: GitHubPullsStandIn;
  let closing: (() => Promise<void>)[];
  let w: ConsoleWorld;

  const branchSha = (ref: string): string | null => {
    try {
      return execFileSync('git', ['--git-dir', bare, 'rev-parse', '--verify', '-q', `refs/heads/${ref}`])
        .toString()
        .trim();
    } catch {
      return null;
    }
  };

  beforeEach(async () => {
    closing = [];
    tmp = await makeTempDir();
    const home = path.join(tmp.path, 'home');
    await mkdir(home, { recursive: true });
    upstream = new GitHubGitStandIn(path.join(tmp.path, 'github'));
    await upstream.start();
    upstream.tokens.add(GITHUB_TOKEN);
    bare = await upstream.createRepo(REPO, home);
    // `main` and the pull request's branch, at the same commit.
    await upstream.seed(REPO, {
      home,
      dir: path.join(tmp.path, 'seed'),
      token: GITHUB_TOKEN,
      files: { 'README.md': 'widgets\n' },
      branches: ['main', BRANCH],
    });
    // With GITHUB_TOKEN alone Summon reads GitHub as that token's account, a person's.
    accounts = { [GITHUB_TOKEN]: { login: 'ops-account', bot: false } };
    api = await new GitHubIssuesStandIn(accounts, [REPO]).start();
    checks = new GitHubChecksStandIn(api);
    pulls = new GitHubPullsStandIn(api, checks);
    // GitHub's pull requests follow their branches: a push moves the head.
    checks.followBranches((_repo, ref) => branchSha(ref));
  });

  afterEach(async () => {
    for (const close of closing.reverse()) await close();
    await api.close();
    await upstream.close();
    await tmp.remove();
  }, 60_000);

  /** `startServer` on the stand-ins, `REPO` in space `general`, pushes allowed (G2). */
  async function serve(env: NodeJS.ProcessEnv): Promise<void> {
    w = await openConsoleWorld({ env: { GITHUB_GIT_URL: upstream.url, ...env } });
    closing.push(() => w.close());
    await w.store.transaction(async (tx) => {
      await tx.spaces.update(w.space.id, { repos: [REPO] });
      await tx.guardrails.upsert(w.workspace.id, {
        scopeKind: 'workspace',
        scopeId: null,
        action: 'push_to_remote',
        decision: 'allow',
      });
    });
  }

  /**
   * A GitHub App on the stand-ins: its installation routes on the App stand-in, the rest on the
   * issues stand-in, behind one GITHUB_API_URL; each minted installation token is the App's bot
   * there and may push to the git stand-in.
   */
  async function gitHubApp(): Promise<NodeJS.ProcessEnv> {
    const keys = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
      publicKeyEncoding: { type: 'spki', format: 'pem' },
    });
    const app = new GitHubApiStandIn(
      { id: Number(APP_ID), publicKeyPem: keys.publicKey, installations: { [REPO]: 818 } },
      (minted) => {
        accounts[minted.token] = { login: 'summon-app[bot]', bot: true };
        upstream.tokens.add(minted.token);
      },
    );
    await app.start();
    closing.push(() => app.close());
    const front = createServer((req, res) => {
      const { pathname } = new URL(req.url ?? '/', 'http://x');
      const target = /^\/app\/|^\/repos\/[^/]+\/[^/]+\/installation$/.test(pathname) ? app.url : api.url;
      const forwarded = request(
        `${target}${req.url}`,
        { method: req.method, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      req.pipe(forwarded);
    });
    await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
    closing.push(async () => {
      front.closeAllConnections();
      await new Promise<void>((resolve) => front.close(() => resolve()));
    });
    return {
      GITHUB_APP_ID: APP_ID,
      GITHUB_APP_PRIVATE_KEY: keys.privateKey,
      // The GitHub front end, whose check runs the engine is given, starts with its secret.
      GITHUB_WEBHOOK_SECRET: 'whsec-serve-pushed-pull',
      GITHUB_API_URL: `http://127.0.0.1:${(front.address() as AddressInfo).port}`,
    };
  }

  /**
   * ada asks the engineer in a Slack thread to push to the open pull request's branch; the
   * push lands, and the pull request is recorded on the thread's conversation and shown there.
   */
  async function pushToThePullRequest() {
    const pull = api.open(REPO, 'Add a health check', { pull: true, login: 'dana-gh' });
    checks.setHeadRef(REPO, pull.number, BRANCH);
    const before = branchSha(BRANCH);
    w.anthropic.script(
      {
        kind: 'stream',
        blocks: [
          {
            type: 'tool_use',
            name: 'bash',
            input: {
              command: `cd repos/widgets && echo ok > health.txt && git add health.txt && git -c user.name=E -c user.email=e@example.com commit -q -m "Add the health check" && git push origin HEAD:${BRANCH} 2>&1`,
            },
          },
        ],
        stopReason: 'tool_use',
      },
      { kind: 'stream', blocks: [{ type: 'text', chunks: [`Pushed ${BRANCH}.`] }] },
    );
    const root = await w.mention('ada', '@engineer push the health check to its PR');
    const thread = () => w.slack.inThread(CHANNEL, root);
    await waitFor(async () => thread().find((m) => m.text.includes(`Pushed ${BRANCH}.`)) ?? null, 60_000);

    // The push landed on the pull request's branch.
    const pushed = branchSha(BRANCH);
    expect(pushed).not.toBeNull();
    expect(pushed).not.toBe(before);
    expect(execFileSync('git', ['--git-dir', bare, 'show', `${pushed}:health.txt`]).toString()).toBe('ok\n');
    expect(JSON.stringify(w.anthropic.requests[1]?.body ?? null)).toContain('Exit code 0.');

    // P22: the pull request is the thread's: recorded on its conversation, its card in the thread.
    const recorded = await waitFor(
      async () => w.store.transaction((tx) => tx.pullRequests.find(REPO, pull.number)),
      30_000,
      () => `: pull request #${pull.number} recorded on a conversation (the gateway's onPushed wiring)`,
    );
    const conversation = await w.store.transaction((tx) =>
      tx.conversations.findByThread('slack', `slack:${CHANNEL}:${root}`),
    );
    expect(conversation).not.toBeNull();
    expect(recorded).toMatchObject({
      conversationId: conversation?.id,
      headSha: pushed,
      title: 'Add a health check',
      url: `https://github.com/${REPO}/pull/${pull.number}`,
    });
    const card = pullRequestCardText({ ...recorded, state: 'open', checks: 'pending' });
    expect(card).toContain(`🔀 Pull request #${pull.number}: Add a health check`);
    await waitFor(async () => thread().find((m) => m.text === card) ?? null, 30_000);

    // GitHub was asked as it must be: the head with its owner, open ones only.
    expect(pulls.lists.map((q) => [q.get('head'), q.get('state')])).toEqual([[`acme:${BRANCH}`, 'open']]);
    return { pushed, recorded };
  }

  it('P22: with GITHUB_TOKEN, the push lands, GitHub is asked for the branch’s open pull requests, and the pull request is recorded on the thread’s conversation and shown there; no check run without an App (P21)', async () => {
    await serve({ GITHUB_TOKEN, GITHUB_API_URL: api.url });
    await pushToThePullRequest();
    // P21: check runs need a GitHub App; with GITHUB_TOKEN none is written or tried.
    expect(checks.runs).toEqual([]);
    expect(api.requests.filter((r) => r.path.includes('check-runs'))).toEqual([]);
  }, 120_000);

  it('P21, P22: with a GitHub App, the same push also gets the turn’s check run on the pushed commit: in_progress, then success', async () => {
    await serve(await gitHubApp());
    const { pushed, recorded } = await pushToThePullRequest();
    const check = await waitFor(
      async () => (checks.runs[0]?.states.at(-1)?.status === 'completed' ? checks.runs[0] : null),
      30_000,
      () => `: a completed check run (runs: ${JSON.stringify(checks.runs)})`,
    );
    expect(checks.runs).toHaveLength(1);
    expect(check.name).toBe('summon / engineer');
    expect(check.headSha).toBe(pushed);
    expect(check.externalId).toBe(`summon-run:${recorded.runId}`);
    expect(check.states[0]?.status).toBe('in_progress');
    expect(check.states.at(-1)).toMatchObject({ status: 'completed', conclusion: 'success' });
  }, 120_000);
});
