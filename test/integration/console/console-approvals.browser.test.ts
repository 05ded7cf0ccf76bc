import { mkdir, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, screenshot, seriousA11yViolations } from '../../support/console-browser';
import { type ConsoleWorld, openConsoleWorld, PEOPLE, type Person } from '../../support/console-world';
import { waitFor } from '../../support/engine-harness';
import { TEAM } from '../../support/slack-delivery';
import { GitHubGitStandIn, git } from '../../support/stand-ins/github-git-stand-in';
import { makeTempDir } from '../../support/temp-dir';

const REPO = 'acme/widgets';
const GITHUB_TOKEN = 'ghs_consoleApprovalsGatewayToken77';

/** A free loopback port: the gateway URL runs are given is the server's configured port. */
const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer();
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

/**
 * O5, G4 in a real browser: a push waits for approval (the git gateway holds it); the console
 * lists it, a plain member cannot decide it, an approver approves it there; the Slack card
 * says who decided and where, and the push lands upstream.
 */
describe('O5, G4 the console’s approvals in Chromium', () => {
  let w: ConsoleWorld;
  let chromium: Awaited<ReturnType<typeof launchChromium>>;
  let browser: Browser;
  let tmp: Awaited<ReturnType<typeof makeTempDir>>;
  let upstream: GitHubGitStandIn;
  let bare: string;
  let home: string;

  beforeEach(async () => {
    tmp = await makeTempDir();
    home = path.join(tmp.path, 'home');
    await mkdir(home, { recursive: true });
    upstream = new GitHubGitStandIn(path.join(tmp.path, 'github'));
    await upstream.start();
    upstream.tokens.add(GITHUB_TOKEN);
    bare = await upstream.createRepo(REPO, home);
    const seed = path.join(tmp.path, 'seed');
    await git(['init', '-q', '-b', 'main', seed], home);
    await writeFile(path.join(seed, 'README.md'), 'widgets\n');
    await git(['add', '.'], home, seed);
    await git(
      ['-c', 'user.name=Seed', '-c', 'user.email=s@example.com', 'commit', '-q', '-m', 'seed'],
      home,
      seed,
    );
    const direct = upstream.url.replace('://', `://x-access-token:${GITHUB_TOKEN}@`);
    expect((await git(['push', '-q', `${direct}/${REPO}.git`, 'main'], home, seed)).code).toBe(0);
    w = await openConsoleWorld({
      env: { PORT: String(await freePort()), GITHUB_TOKEN, GITHUB_GIT_URL: upstream.url },
    });
    await w.store.transaction((tx) => tx.spaces.update(w.space.id, { repos: [REPO] }));
    chromium = await launchChromium();
    browser = chromium.browser;
  });
  afterEach(async () => {
    await chromium?.close();
    await w?.close();
    await upstream?.close();
    await tmp?.remove();
  }, 120_000);

  const signIn = async (person: Person): Promise<Page> => {
    const page = await (await browser.newContext()).newPage();
    w.slack.oidc.browserUser = { userId: PEOPLE[person].slack, teamId: TEAM, name: person };
    await page.goto(`${w.base}/console`);
    await page.getByRole('link', { name: 'Sign in with Slack' }).click();
    await page.getByRole('heading', { name: 'Live runs' }).waitFor();
    return page;
  };

  it('O5, G4 an approver approves a waiting push in the console: the Slack card shows the decision, the push lands; a member cannot decide', async () => {
    w.anthropic.script(
      {
        kind: 'stream',
        blocks: [
          {
            type: 'tool_use',
            name: 'bash',
            input: {
              command:
                'cd repos/widgets && echo console > console.txt && git add console.txt && git -c user.name=E -c user.email=e@example.com commit -q -m "From the console" && git push origin HEAD:main 2>&1',
            },
          },
        ],
        stopReason: 'tool_use',
      },
      { kind: 'stream', blocks: [{ type: 'text', chunks: ['Pushed after approval.'] }] },
    );
    const ada = await signIn('ada');
    const mo = await signIn('mo');
    await ada.getByRole('link', { name: 'Approvals' }).click();
    await ada.getByText('Nothing is waiting for approval.').waitFor();
    await mo.goto(`${w.base}/console/approvals`);

    await w.mention('ada', '@engineer push the console file');
    // The gateway holds the push; its card is in Slack and, live, in the console.
    const card = await waitFor(
      async () => w.slack.messages.find((m) => m.text.includes('push to acme/widgets main')) ?? null,
      60_000,
    );
    const approve = ada.getByRole('button', { name: 'Approve: push to acme/widgets main' });
    await approve.waitFor({ timeout: 30_000 });
    await mo.getByRole('heading', { name: 'push to acme/widgets main' }).waitFor();
    expect(await mo.getByRole('button', { name: /^Approve/ }).count()).toBe(0);
    await screenshot(ada, 'approvals-waiting');
    await screenshot(mo, 'approvals-member');
    expect(await seriousA11yViolations(ada)).toEqual([]);

    // A plain member's decision, sent anyway with their own CSRF token, is refused by G4's rule.
    const approvalId = (await ada.locator('[data-approval]').first().getAttribute('data-approval')) ?? '';
    const moCsrf = await mo.locator('input[name=csrf]').first().inputValue();
    const refused = await mo.evaluate(
      async ([id, csrf]) => {
        const response = await fetch(`/console/approvals/${id}`, {
          method: 'POST',
          headers: { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ csrf, verdict: 'approve' }),
        });
        return { status: response.status, body: (await response.json()) as { message: string } };
      },
      [approvalId, moCsrf] as const,
    );
    expect(refused).toEqual({
      status: 403,
      body: {
        ok: false,
        message: 'Only owners, admins and approvers can decide approvals; your role is member.',
      },
    });

    await approve.click();
    await ada.getByText('Nothing is waiting for approval.').waitFor();
    await mo.getByText('Nothing is waiting for approval.').waitFor();
    // The chat card shows who decided, and where.
    await waitFor(async () => (card.text.includes('Approved by @ada in the console') ? card : null), 30_000);
    // O4: the audit log says who decided, and that it was in the console.
    const decided = await w.store.inWorkspace(w.workspace.id, (tx) =>
      tx.audit.page(w.workspace.id, { kind: 'approval_decided' }, null, 10),
    );
    expect(decided.events.map((e) => [e.actor.name, e.where])).toEqual([['ada', 'console']]);
    // The push lands upstream, and the turn goes on.
    await waitFor(async () => w.slack.messages.some((m) => m.text === 'Pushed after approval.'), 60_000);
    const head = (await git(['--git-dir', bare, 'rev-parse', 'main'], home)).stdout.trim();
    expect((await git(['--git-dir', bare, 'show', `${head}:console.txt`], home)).stdout).toBe('console\n');

    for (const [name, label] of [
      ['usage', 'Usage and budgets'],
      ['agents', 'Agents and spaces'],
      ['live-runs', 'Live runs'],
    ] as const) {
      await ada.getByRole('link', { name: label }).click();
      await ada.getByRole('heading', { name: label, level: 1 }).waitFor();
      await screenshot(ada, `${name}-page`);
      expect(await seriousA11yViolations(ada)).toEqual([]);
    }
  }, 180_000);
});
