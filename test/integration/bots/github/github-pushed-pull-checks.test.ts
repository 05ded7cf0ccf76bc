import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { GitGateway } from '../../../../src/adapters/git-gateway/git-gateway';
import { PackInspector } from '../../../../src/adapters/git-gateway/pack-inspector';
import { RunCredentials } from '../../../../src/adapters/git-gateway/run-credentials';
import { runGitEnvironment } from '../../../../src/adapters/git-gateway/run-git-environment';
import { StaticTokenAuth } from '../../../../src/adapters/git-gateway/upstream';
import { BranchPullsRest } from '../../../../src/adapters/github/branch-pulls-rest';
import { createLogger } from '../../../../src/app/logger';
import type { RunnerEvent, RunnerRequest } from '../../../../src/core/ports/runner';
import { PushedBranches } from '../../../../src/core/pull-requests/pushed-branches';
import { waitFor } from '../../../support/engine-harness';
import {
  APP_TOKEN,
  type GitHubHarness,
  openGitHubHarness,
  PEOPLE,
  REPO,
  SLACK_DANA,
} from '../../../support/github-harness';
import { ScriptedRunner } from '../../../support/scripted-runner';
import { CHANNEL, eventFrom } from '../../../support/slack-delivery';
import type { GitHubChecksStandIn } from '../../../support/stand-ins/github/github-checks-stand-in';
import { GitHubPullsStandIn } from '../../../support/stand-ins/github/github-pulls-stand-in';
import { GitHubGitStandIn, git } from '../../../support/stand-ins/github-git-stand-in';
import { makeTempDir } from '../../../support/temp-dir';

const UPSTREAM_TOKEN = 'ghs_gatewayWriteTokenForPushedPulls01';
const BRANCH = 'health-check';

let h: GitHubHarness;
let checks: GitHubChecksStandIn;
let pulls: GitHubPullsStandIn;
let upstream: GitHubGitStandIn;
let server: Server;
let tmp: Awaited<ReturnType<typeof makeTempDir>>;
let home: string;
let bare: string;
let work: string;
let gatewayUrl: string;
let credentials: RunCredentials;
/** What the engineer's turn does once it is asked: set per test. */
let engineer: (request: RunnerRequest) => AsyncIterable<RunnerEvent>;
const runner = new ScriptedRunner({ engineer: (request) => engineer(request) });

beforeEach(async () => {
  h = await openGitHubHarness({ runner, slack: true, checks: true });
  if (h.checks === null || h.frontEnd.turnChecks === null || h.pullRequestLinks === null)
    throw new Error('no checks');
  checks = h.checks;
  pulls = new GitHubPullsStandIn(h.standIn, checks);
  tmp = await makeTempDir();
  home = path.join(tmp.path, 'home');
  await mkdir(home, { recursive: true });
  upstream = new GitHubGitStandIn(path.join(tmp.path, 'github'));
  await upstream.start();
  upstream.tokens.add(UPSTREAM_TOKEN);
  bare = await upstream.createRepo(REPO, home);
  // GitHub's pull requests follow their branches: a push moves the head.
  checks.followBranches((_repo, ref) => {
    try {
      return execFileSync('git', ['--git-dir', bare, 'rev-parse', '--verify', '-q', `refs/heads/${ref}`])
        .toString()
        .trim();
    } catch {
      return null;
    }
  });
  // `main`, and the branches `health-check` and `docs`, on GitHub; a clone to work in.
  work = path.join(tmp.path, 'work');
  await upstream.seed(REPO, {
    home,
    dir: work,
    token: UPSTREAM_TOKEN,
    files: { 'README.md': 'api\n' },
    branches: ['main', BRANCH, 'docs'],
  });

  const links = h.pullRequestLinks;
  const turnChecks = h.frontEnd.turnChecks;
  const pushed = new PushedBranches({
    store: h.store,
    pulls: new BranchPullsRest({ apiUrl: h.standIn.url, tokens: { token: async () => APP_TOKEN } }),
    checks: turnChecks,
    record: (pull) => links.recordOpened(pull),
    logger: h.logger,
  });
  const clock = { now: () => new Date() };
  credentials = new RunCredentials(h.store, clock);
  const auth = new StaticTokenAuth(UPSTREAM_TOKEN);
  const engine = h.engine;
  if (engine === null) throw new Error('no engine');
  const gateway = new GitGateway({
    store: h.store,
    approvals: engine,
    credentials,
    inspector: new PackInspector({
      workDir: path.join(tmp.path, 'gateway'),
      upstreamUrl: upstream.url,
      auth,
    }),
    upstreamUrl: upstream.url,
    auth,
    spoolDir: tmp.path,
    logger: createLogger({ level: 'silent' }),
    clock,
    timings: { progressMs: 200 },
    pushed: ({ run, repo, updates }) => pushed.accepted({ runId: run.id, repo, updates }),
  });
  server = createServer((req, res) => {
    if (!gateway.handle(req, res)) {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  gatewayUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // G2: pushes are allowed in this workspace (no approval to wait for).
  await h.store.transaction(async (tx) => {
    const workspace = await tx.workspaces.findBySlug('acme');
    if (workspace === null) throw new Error('no workspace');
    await tx.guardrails.upsert(workspace.id, {
      scopeKind: 'workspace',
      scopeId: null,
      action: 'push_to_remote',
      decision: 'allow',
    });
  });
});

afterEach(async () => {
  await h.close();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await upstream.close();
  await tmp.remove();
});

/** The engineer commits and pushes `HEAD` to `branch` through the gateway, then replies. */
function pushingTurn(branch: string) {
  const results: { code: number; stderr: string; sha: string }[] = [];
  engineer = async function* (request) {
    yield { type: 'tool_start', callId: 'p1', tool: 'bash', summary: `git push origin HEAD:${branch}` };
    await writeFile(
      path.join(work, 'health.ts'),
      `export const ok = '${request.runId} ${results.length}';\n`,
    );
    await git(['add', 'health.ts'], home, work);
    await git(['commit', '-q', '-m', 'Add the health check'], home, work);
    const sha = (await git(['rev-parse', 'HEAD'], home, work)).stdout.trim();
    const env = await runGitEnvironment(credentials, request.runId, { gatewayUrl });
    if (env === null) throw new Error('no git environment');
    const pushed = await git(['push', env.remoteUrl(REPO), `HEAD:refs/heads/${branch}`], home, work, env.env);
    results.push({ code: pushed.code, stderr: pushed.stderr, sha });
    yield { type: 'tool_end', callId: 'p1', ok: pushed.code === 0, summary: `exit ${pushed.code}` };
    yield { type: 'final', text: `engineer here: pushed ${branch}.` };
  };
  return results;
}

/** dana asks the engineer in a new Slack thread. */
async function askInSlack(text: string, eventId: string): Promise<string> {
  if (h.slack === null) throw new Error('no Slack');
  const root = h.slack.standIn.addPersonMessage(CHANNEL, null);
  const event = { ts: root, user: SLACK_DANA, text };
  expect((await h.slack.deliver(eventFrom('message-channel', event, eventId))).status).toBe(200);
  return root;
}

const upstreamSha = (ref: string) =>
  execFileSync('git', ['--git-dir', bare, 'rev-parse', `refs/heads/${ref}`])
    .toString()
    .trim();

describe('P21, P22: a chat turn that pushes to an open pull request’s branch', () => {
  it('P21: a Slack-thread turn pushing to the branch of a PR it did not open gets a check run on the pushed commit: in_progress, then success', async () => {
    const pull = h.standIn.open(REPO, 'Add a health check', { pull: true, login: 'dana-gh' });
    checks.setHeadRef(REPO, pull.number, BRANCH);
    const pushes = pushingTurn(BRANCH);
    const root = await askInSlack('@engineer push the health check to its PR', 'Ev0PUSH001');
    const [run] = await h.settled(1);
    await h.frontEnd.turnChecks?.idle();

    expect(run?.status).toBe('succeeded');
    const [push] = pushes;
    expect(push?.code).toBe(0);
    expect(upstreamSha(BRANCH)).toBe(push?.sha);
    // GitHub was asked as it must be: the head with its owner, open ones only.
    expect(pulls.lists.map((q) => [q.get('head'), q.get('state')])).toEqual([[`acme:${BRANCH}`, 'open']]);
    const [check, ...more] = checks.runs;
    expect(more).toHaveLength(0);
    expect(check?.name).toBe('summon / engineer');
    expect(check?.headSha).toBe(push?.sha);
    expect(check?.externalId).toBe(`summon-run:${run?.id}`);
    const states = check?.states ?? [];
    expect(states[0]?.status).toBe('in_progress');
    expect(states[0]?.summary).toContain(`git push origin HEAD:${BRANCH}`);
    expect(states.at(-1)).toMatchObject({ status: 'completed', conclusion: 'success' });
    expect(states.at(-1)?.summary).toContain(`pushed ${BRANCH}`);

    // P22: the pull request is now the thread's: recorded on its conversation and shown there.
    const recorded = await h.store.transaction((tx) => tx.pullRequests.find(REPO, pull.number));
    expect(recorded).toMatchObject({ runId: run?.id, headSha: push?.sha, title: 'Add a health check' });
    await waitFor(
      async () =>
        h.slack?.standIn.inThread(CHANNEL, root).find((m) => m.text.includes('Add a health check')) ?? null,
    );
  });

  it('P21: a turn that pushes twice moves its check to the newer commit and closes the older one neutral', async () => {
    const pull = h.standIn.open(REPO, 'Add a health check', { pull: true, login: 'dana-gh' });
    checks.setHeadRef(REPO, pull.number, BRANCH);
    const once = pushingTurn(BRANCH);
    const first = engineer;
    engineer = async function* (request) {
      for await (const event of first(request)) if (event.type !== 'final') yield event;
      // Its first check has been written before the second push moves it.
      await waitFor(async () => (checks.runs.length > 0 ? true : null));
      yield* first(request);
    };
    await askInSlack('@engineer push it, then fix it', 'Ev0PUSH004');
    const [run] = await h.settled(1);
    await h.frontEnd.turnChecks?.idle();

    expect(run?.status).toBe('succeeded');
    expect(once.map((p) => p.code)).toEqual([0, 0]);
    const [older, newer, ...more] = checks.runs;
    expect(more).toHaveLength(0);
    expect([older?.headSha, newer?.headSha]).toEqual(once.map((p) => p.sha));
    expect(older?.states.at(-1)).toMatchObject({ status: 'completed', conclusion: 'neutral' });
    expect(older?.states.at(-1)?.summary).toContain(once[1]?.sha.slice(0, 7));
    expect(newer?.states.at(-1)).toMatchObject({ status: 'completed', conclusion: 'success' });
  });

  it('P21, P22: an issue’s turn that pushes to a PR’s branch shows on the pushed commit to its end; the PR is not taken into the issue’s conversation', async () => {
    const issue = h.standIn.open(REPO, 'The API has no health check', { login: PEOPLE.dana.login });
    const pull = h.standIn.open(REPO, 'Add a health check', { pull: true, login: 'dana-gh' });
    checks.setHeadRef(REPO, pull.number, BRANCH);
    const pushes = pushingTurn(BRANCH);
    await h.comment(issue.number, PEOPLE.dana, '@engineer push the fix to the open PR');
    const [run] = await h.settled(1);
    await h.frontEnd.turnChecks?.idle();

    expect(run?.status).toBe('succeeded');
    const [check, ...more] = checks.runs;
    expect(more).toHaveLength(0);
    expect(check?.headSha).toBe(pushes[0]?.sha);
    expect(check?.states.at(-1)).toMatchObject({ status: 'completed', conclusion: 'success' });
    expect(await h.store.transaction((tx) => tx.pullRequests.find(REPO, pull.number))).toBeNull();
    await h.waitForComment(issue.number, (body) => body.includes(`pushed ${BRANCH}`));
    expect(h.standIn.thread(REPO, issue.number).some((c) => c.body.includes('Add a health check'))).toBe(
      false,
    );
  });

  it('P21: a push to a branch with no open pull request (only a closed one) creates no check run', async () => {
    const closed = h.standIn.open(REPO, 'Old docs', { pull: true, login: 'dana-gh' });
    checks.setHeadRef(REPO, closed.number, 'docs');
    pulls.closed.add(`${REPO}#${closed.number}`);
    const other = h.standIn.open(REPO, 'Add a health check', { pull: true, login: 'dana-gh' });
    checks.setHeadRef(REPO, other.number, BRANCH);
    const pushes = pushingTurn('docs');
    await askInSlack('@engineer push the docs', 'Ev0PUSH002');
    const [run] = await h.settled(1);
    await h.frontEnd.turnChecks?.idle();

    expect(run?.status).toBe('succeeded');
    expect(pushes[0]?.code).toBe(0);
    expect(pulls.lists.map((q) => q.get('head'))).toEqual(['acme:docs']);
    expect(checks.runs).toHaveLength(0);
    expect(await h.store.transaction((tx) => tx.pullRequests.find(REPO, other.number))).toBeNull();
  });

  it('P21: a lookup GitHub answers 500 fails neither the push nor the turn, and is logged once', async () => {
    const pull = h.standIn.open(REPO, 'Add a health check', { pull: true, login: 'dana-gh' });
    checks.setHeadRef(REPO, pull.number, BRANCH);
    h.standIn.failures.push({ method: 'GET', path: /^\/repos\/acme\/api\/pulls$/, status: 500 });
    const pushes = pushingTurn(BRANCH);
    await askInSlack('@engineer push the health check', 'Ev0PUSH003');
    const [run] = await h.settled(1);
    await h.frontEnd.turnChecks?.idle();

    expect(run?.status).toBe('succeeded');
    expect(pushes[0]?.code).toBe(0);
    expect(upstreamSha(BRANCH)).toBe(pushes[0]?.sha);
    expect(h.standIn.requests.filter((r) => r.path === '/repos/acme/api/pulls')).toEqual([
      { method: 'GET', path: '/repos/acme/api/pulls', status: 500 },
    ]);
    expect(checks.runs).toHaveLength(0);
    expect(h.log().match(/the pushed branch’s pull requests could not be read/g)).toHaveLength(1);
  });
});
