import type { Browser, Page } from 'playwright-core';
import type { SlackWebApiStandIn } from '../../test/support/stand-ins/slack-web-api-stand-in';

/** One card change the page drew: the run, its sequence number, when Summon published it and when the DOM had it (ms since the epoch). */
export interface DrawnCard {
  run: string;
  seq: number;
  at: number;
  seen: number;
}

/** What a page recorded since its watch began. */
export interface PageRecord {
  cards: DrawnCard[];
  /** Whole tables drawn (the live stream's `update` events). */
  tables: number;
}

/**
 * Installed in the page: a MutationObserver on the live part. A card cell whose `data-seq`
 * changed is one `card` event drawn (its `data-at` is when Summon published the change); a new
 * table is one `update` drawn. The time is the page's clock (`performance.timeOrigin + now()`),
 * the same machine's as Summon's.
 */
const WATCH = `(() => {
  const live = document.querySelector('[data-live]');
  const record = { cards: [], tables: 0 };
  window.__consoleBench = record;
  new MutationObserver((mutations) => {
    const seen = performance.timeOrigin + performance.now();
    for (const m of mutations) {
      if (m.type === 'attributes' && m.target.classList.contains('card')) {
        const row = m.target.closest('tr');
        record.cards.push({
          run: row === null ? '' : row.dataset.run,
          seq: Number(m.target.dataset.seq),
          at: Number(m.target.dataset.at),
          seen,
        });
      } else if (m.type === 'childList' && m.target === live) {
        for (const node of m.addedNodes) if (node.nodeName === 'TABLE') record.tables += 1;
      }
    }
  }).observe(live, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-seq'] });
})()`;

const TAKE = `(() => {
  const record = window.__consoleBench;
  window.__consoleBench = { cards: [], tables: 0 };
  return record;
})()`;

/**
 * A signed-in viewer: a fresh browser context signs in with Slack (the OpenID Connect round
 * trip through the Slack stand-in, as `userId`) and is left on a blank page (no live stream).
 */
export async function signInViewer(
  browser: Browser,
  base: string,
  slack: SlackWebApiStandIn,
  who: { userId: string; teamId: string },
): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  slack.oidc.browserUser = { ...who, name: 'viewer' };
  await page.goto(`${base}/console`);
  await page.getByRole('link', { name: 'Sign in with Slack' }).click({ timeout: 180_000 });
  await page.getByRole('heading', { name: 'Live runs' }).waitFor({ timeout: 180_000 });
  await page.goto('about:blank');
  return page;
}

/** The viewer opens the live-runs page (its session cookie kept) and waits until its table lists `turns` runs. */
export async function openLiveRuns(page: Page, base: string, turns: number): Promise<void> {
  await page.goto(`${base}/console`, { timeout: 180_000 });
  await page.waitForFunction(
    (n) =>
      (
        globalThis as unknown as { document: { querySelectorAll(s: string): { length: number } } }
      ).document.querySelectorAll('tr[data-run]').length >= n,
    turns,
    { timeout: 180_000 },
  );
}

/** The viewer leaves the page: its live stream closes. */
export const leaveLiveRuns = async (page: Page): Promise<void> => {
  await page.goto('about:blank');
};

/** Starts recording the page's draws (what was drawn before is not kept). */
export const watchDraws = (page: Page): Promise<void> => page.evaluate(WATCH);

/** What the page drew since `watchDraws` or the last `takeDraws`. */
export const takeDraws = (page: Page): Promise<PageRecord> => page.evaluate(TAKE) as Promise<PageRecord>;
