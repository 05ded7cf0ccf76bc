import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pullRequestCardText } from '../../../src/core/pull-requests/pull-request-card';
import { type ConsoleWorld, openConsoleWorld } from '../../support/console-world';
import { waitFor } from '../../support/engine-harness';
import { CHANNEL } from '../../support/slack-delivery';
import { GitHubChecksStandIn } from '../../support/stand-ins/github/github-checks-stand-in';
import { GitHubIssuesStandIn } from '../../support/stand-ins/github/github-issues-stand-in';
import { GitHubPullsStandIn } from '../../support/stand-ins/github/github-pulls-stand-in';
import { GitHubGitStandIn, git } from '../../support/stand-ins/github-git-stand-in';
import { makeTempDir } from '../../support/temp-dir';

const REPO = 'acme/widgets';
const BRANCH = 'health-check';
const GITHUB_TOKEN = 'ghs_servePushedPullGatewayToken5150';

/**
 * P21, P22 as `summon serve` wires them (`startServer`, PORT 0): Slack on its Web API stand-in,
 * GITHUB_TOKEN for the git gateway (the git stand-in) and GitHub's REST API (the issues
 * stand-in with its pull requests), a model that pushes through the gateway. What the server
 * joins is under test: the gateway's accepted push reaching the pushed branches' lookup.
 */
describe('P21, P22: `summon serve` with GITHUB_TOKEN: a Slack turn’s push to an open pull request’s branch', () => {
  let tmp: Awaited<ReturnType<typeof makeTempDir>>;
  let home: string;
  let bare: string;
  let upstream: GitHubGitStandIn;
  let api: GitHubIssuesStandIn;
  let checks: GitHubChecksStandIn;
  let pulls: GitHubPullsStandIn;
  let w: ConsoleWorld | undefined;

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
    tmp = await makeTempDir();
    home = path.join(tmp.path, 'home');
    await mkdir(home, { recursive: true });
    upstream = new GitHubGitStandIn(path.join(tmp.path, 'github'));
    await upstream.start();
    upstream.tokens.add(GITHUB_TOKEN);
    bare = await upstream.createRepo(REPO, home);
    // `main` and the pull request's branch, at the same commit.
    const seed = path.join(tmp.path, 'seed');
    await git(['init', '-q', '-b', 'main', seed], home);
    await writeFile(path.join(seed, 'README.md'), 'widgets\n');
    await git(['add', '.'], home, seed);
    await git(
      ['-c', 'user.name=Seed', '-c', 'user.email=s@example.com', 'commit', '-q', '-m', 'seed'],
      home,
      seed,
    );
    const direct = `${upstream.url.replace('://', `://x-access-token:${GITHUB_TOKEN}@`)}/${REPO}.git`;
    for (const ref of ['main', BRANCH])
      expect((await git(['push', '-q', direct, `HEAD:refs/heads/${ref}`], home, seed)).code).toBe(0);

    // With GITHUB_TOKEN alone Summon reads GitHub as that token's account, a person's.
    api = await new GitHubIssuesStandIn({ [GITHUB_TOKEN]: { login: 'ops-account', bot: false } }, [
      REPO,
    ]).start();
    checks = new GitHubChecksStandIn(api);
    pulls = new GitHubPullsStandIn(api, checks);
    // GitHub's pull requests follow their branches: a push moves the head.
    checks.followBranches((_repo, ref) => branchSha(ref));

    w = await openConsoleWorld({
      env: { GITHUB_TOKEN, GITHUB_GIT_URL: upstream.url, GITHUB_API_URL: api.url },
    });
    const { workspace, space } = w;
    await w.store.transaction(async (tx) => {
      await tx.spaces.update(space.id, { repos: [REPO] });
      // G2: pushes are allowed in this workspace (no approval to wait for).
      await tx.guardrails.upsert(workspace.id, {
        scopeKind: 'workspace',
        scopeId: null,
        action: 'push_to_remote',
        decision: 'allow',
      });
    });
  });

  afterEach(async () => {
    await w?.close();
    w = undefined;
    await api.close();
    await upstream.close();
    await tmp.remove();
  }, 60_000);

  it('P22: the push lands, GitHub is asked for the branch’s open pull requests, and the pull request is recorded on the thread’s conversation and shown there; no check run without an App (P21)', async () => {
    if (w === undefined) throw new Error('no server');
    const world = w;
    const pull = api.open(REPO, 'Add a health check', { pull: true, login: 'dana-gh' });
    checks.setHeadRef(REPO, pull.number, BRANCH);
    const before = branchSha(BRANCH);
    world.anthropic.script(
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

    const root = await world.mention('ada', '@engineer push the health check to its PR');
    const thread = () => world.slack.inThread(CHANNEL, root);
    await waitFor(async () => thread().find((m) => m.text.includes(`Pushed ${BRANCH}.`)) ?? null, 60_000);

    // The push landed on the pull request's branch.
    const pushed = branchSha(BRANCH);
    expect(pushed).not.toBeNull();
    expect(pushed).not.toBe(before);
    expect(execFileSync('git', ['--git-dir', bare, 'show', `${pushed}:health.txt`]).toString()).toBe('ok\n');
    expect(JSON.stringify(world.anthropic.requests[1]?.body ?? null)).toContain('Exit code 0.');

    // P22: the pull request is the thread's: recorded on its conversation, its card in the thread.
    const recorded = await waitFor(
      async () => world.store.transaction((tx) => tx.pullRequests.find(REPO, pull.number)),
      30_000,
      () => `: pull request #${pull.number} recorded on a conversation (the gateway's onPushed wiring)`,
    );
    const conversation = await world.store.transaction((tx) =>
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
    await waitFor(async () => thread().find((m) => m.text === card) ?? null, 30_000);
    expect(card).toContain(`🔀 Pull request #${pull.number}: Add a health check`);

    // GitHub was asked as it must be: the head with its owner, open ones only.
    expect(pulls.lists.map((q) => [q.get('head'), q.get('state')])).toEqual([[`acme:${BRANCH}`, 'open']]);
    // P21: check runs need a GitHub App; with GITHUB_TOKEN none is written or tried.
    expect(checks.runs).toEqual([]);
    expect(api.requests.filter((r) => r.path.includes('check-runs'))).toEqual([]);
  }, 120_000);
});
