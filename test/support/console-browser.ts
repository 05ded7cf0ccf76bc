import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';

/** Where the console's screenshots are kept as test artifacts (gitignored). */
export const SCREENSHOTS = path.join(__dirname, '../../test-artifacts/console');

/**
 * Debian's Chromium (`/usr/bin/chromium`, installed by `.ci/run`) driven by playwright-core:
 * headless, no sandbox (tests run as root), nothing fetched from the network by the browser
 * itself, and a fresh profile each time (Playwright gives every `launch` a new temporary
 * user-data directory and removes it at close; it refuses `--user-data-dir` in `args`). Never a
 * browser download.
 */
export async function launchChromium(): Promise<{ browser: Browser; close(): Promise<void> }> {
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  return {
    browser,
    close: () => browser.close(),
  };
}

/** A full-page screenshot of the page as it is, saved under `SCREENSHOTS`. */
export async function screenshot(page: Page, name: string): Promise<void> {
  await mkdir(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/** axe-core's serious and critical violations on the page, as `id: help (targets)`. */
export async function seriousA11yViolations(page: Page): Promise<string[]> {
  const source = await readFile(require.resolve('axe-core/axe.min.js'), 'utf8');
  // The console's CSP allows only its own scripts: axe is evaluated, not added as a <script>.
  await page.evaluate(source);
  const violations = await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(): Promise<{ violations: AxeViolation[] }> } }).axe;
    return (await axe.run()).violations;
  });
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}
