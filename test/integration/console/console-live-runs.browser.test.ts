import type { Browser, Page } from 'playwright-core';
import { launchChromium, screenshot, seriousA11yViolations } from '../../support/console-browser';
import { type ConsoleWorld, openConsoleWorld, PEOPLE, type Person } from '../../support/console-world';
import { waitFor } from '../../support/engine-harness';
import { TEAM } from '../../support/slack-delivery';

/** The accessible label (or text) of the element that has the keyboard focus. */
const focusedLabel = (page: Page): Promise<string | null> =>
  page.evaluate(() => {
    type Focused = { getAttribute(name: string): string | null; textContent: string | null };
    const active = (globalThis as unknown as { document: { activeElement: Focused | null } }).document
      .activeElement;
    return active?.getAttribute('aria-label') ?? active?.textContent ?? null;
  });

/** O5, P15 in a real browser: a running turn shows live on the console and is stopped there. */
describe('O5 the console’s live runs in Chromium', () => {
  let w: ConsoleWorld;
  let chromium: Awaited<ReturnType<typeof launchChromium>>;
  let browser: Browser;
  beforeEach(async () => {
    w = await openConsoleWorld();
    chromium = await launchChromium();
    browser = chromium.browser;
  });
  afterEach(async () => {
    await chromium?.close();
    await w?.close();
  });

  /** A fresh browser profile signs in with Slack as the person: the link, Slack's page, back. */
  const signIn = async (person: Person): Promise<Page> => {
    const page = await (await browser.newContext()).newPage();
    w.slack.oidc.browserUser = { userId: PEOPLE[person].slack, teamId: TEAM, name: person };
    await page.goto(`${w.base}/console`);
    await page.getByRole('link', { name: 'Sign in with Slack' }).click();
    await page.getByRole('heading', { name: 'Live runs' }).waitFor();
    return page;
  };

  it('O5, P15 a running turn appears live and an approver stops it from the console; a viewer sees it without Stop; a POST without the CSRF token is refused', async () => {
    w.anthropic.reply = () => ({
      kind: 'stream',
      blocks: [{ type: 'text', chunks: ['thinking…'] }],
      hold: true,
    });
    const ada = await signIn('ada');
    const vic = await signIn('vic');
    await ada.getByText('No turn is running now.').waitFor();
    await screenshot(ada, 'live-runs-empty');
    expect(await seriousA11yViolations(ada)).toEqual([]);

    await w.mention('ada', '@engineer think it over');
    // Live: the row arrives without a reload (Server-Sent Events).
    const row = ada.locator('tr', { hasText: 'engineer' });
    await row.waitFor();
    await expect(row.getByRole('cell', { name: 'running' }).count()).resolves.toBe(1);
    // O3: the tokens it has used so far, as a count (the held model call has reported none yet).
    expect(await row.locator('td.tokens').textContent()).toMatch(/^[0-9][0-9,]*$/);
    await vic.locator('tr', { hasText: 'engineer' }).waitFor();
    expect(await vic.getByRole('button', { name: /^Stop/ }).count()).toBe(0);
    await screenshot(ada, 'live-runs-running');
    await screenshot(vic, 'live-runs-viewer');
    expect(await seriousA11yViolations(ada)).toEqual([]);

    // A request without the session's CSRF token changes nothing.
    const runId = (await row.getAttribute('data-run')) ?? '';
    const forged = await ada.evaluate(async (id) => {
      const response = await fetch(`/console/runs/${id}/stop`, {
        method: 'POST',
        headers: { accept: 'application/json' },
      });
      return { status: response.status, body: (await response.json()) as { message: string } };
    }, runId);
    expect(forged.status).toBe(403);
    expect(forged.body.message).toContain('CSRF');
    // The viewer, with their own token, is refused by the core's Stop rule (P15).
    const vicCsrf = await vic.locator('input[name=csrf]').first().inputValue();
    const viewerStop = await vic.evaluate(
      async ([id, csrf]) => {
        const response = await fetch(`/console/runs/${id}/stop`, {
          method: 'POST',
          headers: { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ csrf }),
        });
        return { status: response.status, body: (await response.json()) as { message: string } };
      },
      [runId, vicCsrf] as const,
    );
    expect(viewerStop.status).toBe(403);
    const stillRunning = await w.store.inWorkspace(w.workspace.id, (tx) => tx.runs.findById(runId));
    expect(stillRunning?.status).toBe('running');

    // Keyboard: Tab reaches Stop, Enter presses it.
    const label = 'Stop engineer’s turn in #general';
    for (let i = 0; i < 30 && (await focusedLabel(ada)) !== label; i += 1) await ada.keyboard.press('Tab');
    expect(await focusedLabel(ada)).toBe(label);
    await ada.keyboard.press('Enter');
    await ada.getByText('No turn is running now.').waitFor();
    const stopped = await waitFor(async () => {
      const run = await w.store.inWorkspace(w.workspace.id, (tx) => tx.runs.findById(runId));
      return run?.status === 'failed' ? run : null;
    });
    expect(stopped.error).toBe('Stopped by @ada');
    await vic.getByText('No turn is running now.').waitFor();
  }, 120_000);

  it('O5, P9 a running turn’s status card rows appear on the console and change as its tool calls do, pushed without redrawing the table', async () => {
    let release = () => {};
    const second = new Promise<void>((resolve) => (release = resolve));
    w.anthropic.reply = (body) => {
      const rounds = JSON.stringify(body.messages).split('"tool_result"').length - 1;
      if (rounds === 0)
        return { kind: 'stream', blocks: [{ type: 'tool_use', name: 'list_files', input: { path: '.' } }] };
      if (rounds === 1)
        return {
          kind: 'stream',
          blocks: [{ type: 'tool_use', name: 'read_file', input: { path: 'missing.txt' } }],
          after: second,
        };
      return { kind: 'stream', blocks: [{ type: 'text', chunks: ['still looking…'] }], hold: true };
    };
    const ada = await signIn('ada');
    await ada.getByText('No turn is running now.').waitFor();
    await w.mention('ada', '@engineer look around');
    const row = ada.locator('tr', { hasText: 'engineer' });
    const card = row.locator('td.card');
    // The first call's row: started, then ended (its ✓), live.
    await card.getByText(/^✓/).waitFor();
    expect(await card.locator('li').count()).toBe(1);
    const seq = Number(await card.getAttribute('data-seq'));
    // Marks the table: a redraw of the whole table would drop the mark.
    await ada.evaluate(() => {
      type Marked = { dataset: Record<string, string> } | null;
      const table = (
        globalThis as unknown as { document: { querySelector(s: string): Marked } }
      ).document.querySelector('#runs table');
      if (table !== null) table.dataset.mark = 'kept';
    });
    release();
    // The second call's row follows the first: it failed (no such file), shown with its ✗.
    await card.getByText(/^✗/).waitFor();
    expect(await card.locator('li').count()).toBe(2);
    expect(await card.locator('li').first().textContent()).toMatch(/^✓/);
    expect(Number(await card.getAttribute('data-seq'))).toBeGreaterThan(seq);
    expect(await ada.locator('#runs table').getAttribute('data-mark')).toBe('kept');
    await screenshot(ada, 'live-runs-card-rows');
    expect(await seriousA11yViolations(ada)).toEqual([]);
    // A page opened now shows the rows so far in its first draw.
    const again = await signIn('ada');
    await again.locator('tr', { hasText: 'engineer' }).locator('td.card').getByText(/^✗/).waitFor();
    await row.getByRole('button', { name: /^Stop/ }).click();
    await ada.getByText('No turn is running now.').waitFor();
  }, 120_000);

  it('O5, P8 in the browser: the sign-in page works without script; a non-member and another team are refused with a sentence', async () => {
    const page = await (await browser.newContext({ javaScriptEnabled: false })).newPage();
    await page.goto(`${w.base}/console`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await screenshot(page, 'sign-in');
    w.slack.oidc.browserUser = { userId: 'U0STRANGER', teamId: TEAM, name: 'stranger' };
    await page.getByRole('link', { name: 'Sign in with Slack' }).click();
    await page
      .getByRole('alert')
      .getByText('Your Slack account is not a member of a Summon workspace')
      .waitFor();
    await screenshot(page, 'sign-in-refused');
    w.slack.oidc.browserUser = { userId: PEOPLE.ada.slack, teamId: 'T0OTHERTEAM', name: 'ada' };
    await page.goto(`${w.base}/console/auth/slack`);
    await page.getByRole('alert').getByText('(T0OTHERTEAM) is not linked to this Summon').waitFor();
    // Neither began a session: the console still asks to sign in.
    await page.goto(`${w.base}/console`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    const scripted = await (await browser.newContext()).newPage();
    await scripted.goto(`${w.base}/console`);
    expect(await seriousA11yViolations(scripted)).toEqual([]);
  }, 120_000);
});
