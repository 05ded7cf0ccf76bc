import { generateKeyPairSync } from 'node:crypto';
import { Octokit } from '@octokit/rest';
import { GitHubAppAuth } from '../../../src/adapters/github/github-app-auth';
import { PullRequests } from '../../../src/adapters/github/pull-requests';
import { threadPoster } from '../../../src/adapters/github/thread-poster';
import { postSystemMessage } from '../../../src/core/engine/cards/system-message';
import type { ChatPlatform } from '../../../src/core/ports/chat-platform';
import { silentLogger } from '../../../src/core/ports/logger';
import { PullRequestLinks } from '../../../src/core/pull-requests/pull-request-links';
import { describeEntry, ENGINE_SETUPS, waitFor } from '../../support/engine-harness';
import { GitHubApiStandIn } from '../../support/stand-ins/github-api-stand-in';
import { type GatewayFixture, openGatewayFixture, REPO } from '../git-gateway/gateway-fixture';

const keys = () =>
  generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });

describe('GitHub App credentials and pull requests (@octokit/auth-app, @octokit/rest)', () => {
  const { privateKey, publicKey } = keys();
  let api: GitHubApiStandIn;
  let f: GatewayFixture;

  beforeEach(async () => {
    f = await openGatewayFixture(
      ENGINE_SETUPS[0],
      {},
      {
        auth: async (upstream) => {
          // Tokens the API mints are the ones the git host accepts, as on GitHub.
          api = new GitHubApiStandIn(
            { id: 4242, publicKeyPem: publicKey, installations: { 'acme/widgets': 777, 'acme/other': 778 } },
            (minted) => upstream.tokens.add(minted.token),
          );
          await api.start();
          return new GitHubAppAuth({ appId: 4242, privateKey, apiUrl: api.url });
        },
      },
    );
    api.branches.set(REPO, new Set(['main', 'feature']));
  });
  afterEach(async () => {
    await f.close();
    await api.close();
  });

  const pullRequests = (links?: PullRequestLinks) =>
    new PullRequests({
      ...(links === undefined ? {} : { links }),
      store: f.h.store,
      approvals: {
        requestApproval: (r) => f.h.engine.requestApproval(r),
        approvalState: (id) => f.h.engine.approvalState(id),
        awaitApproval: (id, signal) => f.h.engine.awaitApproval(id, signal),
      },
      tokens: new GitHubAppAuth({ appId: 4242, privateKey, apiUrl: api.url }),
      apiUrl: api.url,
      post: threadPoster(f.h.store, (conversation, text) =>
        postSystemMessage(
          { store: f.h.store, platforms: new Map([['terminal', f.h.platform]]) },
          conversation,
          text,
        ),
      ),
      logger: silentLogger,
    });

  it('G3: the gateway pushes with installation tokens scoped to the repo and `contents`, minted with a verified app JWT', async () => {
    await f.setRule('allow');
    const head = await f.commit('README.md', 'hello\n');
    expect((await f.startPush(['origin', 'main'])).code).toBe(0);
    expect(await f.upstreamRef('refs/heads/main')).toBe(head);
    expect(api.requests.find((r) => r.url === '/repos/acme/widgets/installation')?.status).toBe(200);
    expect(
      api.minted.map((m) => ({ id: m.installationId, repos: m.repositories, perms: m.permissions })),
    ).toEqual(expect.arrayContaining([{ id: 777, repos: ['widgets'], perms: { contents: 'write' } }]));
    expect(api.minted.every((m) => m.repositories?.length === 1)).toBe(true);
  });

  it('a JWT signed with another key is refused as GitHub refuses it', async () => {
    const other = new GitHubAppAuth({ appId: 4242, privateKey: keys().privateKey, apiUrl: api.url });
    await expect(other.token(REPO, { contents: 'read' })).rejects.toMatchObject({ status: 401 });
    expect(api.minted).toEqual([]);
  });

  it('the stand-in checks bodies against GitHub’s OpenAPI description (422) and JSON (400)', async () => {
    const token = await new GitHubAppAuth({ appId: 4242, privateKey, apiUrl: api.url }).token(REPO, {
      pull_requests: 'write',
    });
    const quiet = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };
    const octokit = new Octokit({ baseUrl: api.url, auth: token, log: quiet });
    await expect(
      octokit.request('POST /repos/{owner}/{repo}/pulls', {
        owner: 'acme',
        repo: 'widgets',
        base: 'main',
        title: 7,
      } as never),
    ).rejects.toMatchObject({ status: 422 });
    const raw = await fetch(`${api.url}/repos/acme/widgets/pulls`, {
      method: 'POST',
      headers: { authorization: `token ${token}` },
      body: '{not json',
    });
    expect(raw.status).toBe(400);
  });

  it('G1 open_pull_request allowed: the PR is created and its link posted in the thread', async () => {
    await f.h.read((tx) =>
      tx.guardrails.upsert(f.ws, {
        scopeKind: 'workspace',
        scopeId: null,
        action: 'open_pull_request',
        decision: 'allow',
      }),
    );
    const result = await pullRequests().open({
      runId: f.run.id,
      repo: REPO,
      head: 'feature',
      base: 'main',
      title: 'Fix it',
    });
    expect(result).toEqual({ ok: true, number: 1, url: 'https://github.com/acme/widgets/pull/1' });
    expect(api.pulls).toEqual([{ repo: REPO, number: 1, head: 'feature', base: 'main', title: 'Fix it' }]);
    expect(f.h.thread(1).map(describeEntry)).toContain(
      'system: Opened pull request #1: https://github.com/acme/widgets/pull/1',
    );
    const grant = api.minted.find((m) => m.permissions.pull_requests === 'write');
    expect(grant).toMatchObject({ repositories: ['widgets'], permissions: { pull_requests: 'write' } });
  });

  it('GitHub’s 422 (a head branch that does not exist) comes back as a clear refusal', async () => {
    await f.h.read((tx) =>
      tx.guardrails.upsert(f.ws, {
        scopeKind: 'workspace',
        scopeId: null,
        action: 'open_pull_request',
        decision: 'allow',
      }),
    );
    const result = await pullRequests().open({
      runId: f.run.id,
      repo: REPO,
      head: 'nope',
      base: 'main',
      title: 'x',
    });
    expect(result).toEqual({ ok: false, reason: expect.stringMatching(/HTTP 422: Validation Failed/) });
    expect(api.pulls).toEqual([]);
  });

  it('G2 deny: refused with the reason, GitHub never called; a repo outside the space is refused', async () => {
    await f.h.read((tx) =>
      tx.guardrails.upsert(f.ws, {
        scopeKind: 'workspace',
        scopeId: null,
        action: 'open_pull_request',
        decision: 'deny',
      }),
    );
    const denied = await pullRequests().open({
      runId: f.run.id,
      repo: REPO,
      head: 'feature',
      base: 'main',
      title: 'x',
    });
    expect(denied).toEqual({ ok: false, reason: expect.stringMatching(/deny/i) });
    const outside = await pullRequests().open({
      runId: f.run.id,
      repo: 'acme/other',
      head: 'feature',
      base: 'main',
      title: 'x',
    });
    expect(outside).toEqual({ ok: false, reason: expect.stringMatching(/not a repository of this space/) });
    expect(api.requests.filter((r) => r.url.includes('/pulls'))).toEqual([]);
  });

  it('G4 ask (the default): a card in the thread; approved → the PR is opened', async () => {
    const opening = pullRequests().open({
      runId: f.run.id,
      repo: REPO,
      head: 'feature',
      base: 'main',
      title: 'Fix it',
    });
    const card = await waitFor(async () => {
      const entry = f.h.thread(1).find((e) => e.kind === 'posted' && e.message.content.kind === 'approval');
      return entry?.kind === 'posted' ? entry : null;
    });
    expect(describeEntry(card)).toBe('approval(pending) open a pull request on acme/widgets: feature → main');
    await f.h.type('/thread 1');
    await f.h.type(`/approve ${card.cardNumber}`);
    expect(await opening).toMatchObject({ ok: true, number: 1 });
  });

  it('P22: the pull request’s body links the thread; the PR is recorded on the conversation and shown in the thread', async () => {
    await f.h.read((tx) =>
      tx.guardrails.upsert(f.ws, {
        scopeKind: 'workspace',
        scopeId: null,
        action: 'open_pull_request',
        decision: 'allow',
      }),
    );
    // The terminal has no links to threads: this thread's link is what a chat platform (Slack's permalink) gives.
    const permalink = 'https://acme.slack.com/archives/C0DEV00001/p1700000000000100';
    const linked: ChatPlatform = Object.assign(Object.create(f.h.platform) as ChatPlatform, {
      threadLink: async () => permalink,
    });
    const links = new PullRequestLinks({
      store: f.h.store,
      platforms: new Map([['terminal', linked]]),
      wake: async () => {},
      clock: { now: () => new Date() },
      logger: silentLogger,
      failingChecks: null,
    });
    const result = await pullRequests(links).open({
      runId: f.run.id,
      repo: REPO,
      head: 'feature',
      base: 'main',
      title: 'Fix it',
      body: 'Fixes the login bug.',
    });
    expect(result).toMatchObject({ ok: true, number: 1 });
    const created = api.requests.find((r) => r.method === 'POST' && r.url.endsWith('/pulls'));
    const body = (created?.body as { body?: string } | undefined)?.body ?? '';
    expect(body).toMatch(
      /^Fixes the login bug\.\n\n---\nOpened by \S+ through Summon from this conversation: /,
    );
    expect(body).toContain(permalink);
    const recorded = await f.h.read((tx) => tx.pullRequests.find(REPO, 1));
    expect(recorded).toMatchObject({ conversationId: f.run.conversationId, runId: f.run.id, state: 'open' });
    expect(f.h.thread(1).map(describeEntry).join('\n')).toContain('Pull request #1: Fix it');
  });
});
