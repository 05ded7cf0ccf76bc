import { type ConsoleWorld, cookiesOf, openConsoleWorld } from '../../support/console-world';
import { runSummon } from '../../support/run-summon';

/** O5: `summon console link`, the one-time sign-in for the local chat's owner; cookies over HTTPS. */
describe('O5 summon console link', () => {
  let w: ConsoleWorld;
  beforeEach(async () => {
    w = await openConsoleWorld({ env: { SUMMON_PUBLIC_URL: 'https://summon.example.com' } });
  });
  afterEach(() => w.close());

  const linkFor = async (args: string[]) => {
    const result = await runSummon(['console', 'link', ...args], {
      env: { ...w.env, LOG_LEVEL: 'silent' },
      cwd: process.cwd(),
    });
    const link = /https:\/\/summon\.example\.com(\/console\/link\?token=[A-Za-z0-9_-]{43})/.exec(
      result.stdout,
    )?.[1];
    return { ...result, local: link === undefined ? null : `${w.base}${link}` };
  };

  it('O5 the link signs the member in once, with a Secure cookie behind an HTTPS public URL', async () => {
    const printed = await linkFor(['--member', 'ada']);
    expect(printed.code).toBe(0);
    expect(printed.stdout).toContain(
      'sign in to the console as @ada (approver); it works once, within 15 minutes',
    );
    const first = await fetch(printed.local ?? '', { redirect: 'manual' });
    expect(first.status).toBe(303);
    const setCookie = first.headers.getSetCookie().find((c) => c.startsWith('summon_console='));
    expect(setCookie).toMatch(/; HttpOnly; SameSite=Lax; Max-Age=43200; Secure$/);
    const page = await fetch(`${w.base}/console`, { headers: { cookie: cookiesOf(first).join('; ') } });
    expect(await page.text()).toContain('@ada (approver) in default');
    const again = await fetch(printed.local ?? '', { redirect: 'manual' });
    expect(again.status).toBe(403);
    expect(await again.text()).toContain('This sign-in link is unknown, used or expired');
  });

  it('O5 without --member the link is the owner’s; an unknown member is a sentence', async () => {
    await w.store.transaction((tx) =>
      tx.members.insert(w.workspace.id, {
        nickname: 'olive',
        role: 'owner',
        slackUserId: null,
        discordUserId: null,
      }),
    );
    const owner = await linkFor([]);
    expect(owner.stdout).toContain('as @olive (owner)');
    const unknown = await linkFor(['--member', 'nobody']);
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toContain('There is no member @nobody in workspace "default".');
  });
});
