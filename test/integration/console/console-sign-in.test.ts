import {
  type ConsoleWorld,
  cookiesOf,
  csrfOf,
  DISCORD_CLIENT,
  openConsoleWorld,
  PEOPLE,
  SLACK_CLIENT,
} from '../../support/console-world';
import { TEAM } from '../../support/slack-delivery';

/** O5: signing in to the web console with Slack (OpenID Connect) and Discord (OAuth2), over HTTP. */
describe('O5 console sign-in', () => {
  let w: ConsoleWorld;
  beforeEach(async () => {
    w = await openConsoleWorld();
  });
  afterEach(() => w.close());

  const page = (path: string, cookie = '') =>
    fetch(`${w.base}${path}`, { headers: { cookie }, redirect: 'manual' });

  it('O5 an unsigned visitor gets plain links to the configured sign-ins', async () => {
    const response = await page('/console');
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('<a href="/console/auth/slack">Sign in with Slack</a>');
    expect(html).toContain('<a href="/console/auth/discord">Sign in with Discord</a>');
    expect(html).not.toContain('<script');
    expect((await page('/console/approvals')).status).toBe(401);
  });

  it('O5, P8 an approver signs in with Slack: state and nonce sent, code exchanged at SLACK_API_URL, a session cookie HttpOnly and SameSite', async () => {
    const { callback, session } = await w.signInWithSlack(PEOPLE.ada.slack);
    expect(callback.status).toBe(303);
    const asked = w.slack.oidc.authorizations[0];
    expect(asked?.get('state')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(asked?.get('nonce')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(asked?.get('client_id')).toBe(SLACK_CLIENT.clientId);
    expect(w.slack.oidc.tokenCalls).toEqual([{ ok: true }]);
    const setCookie = callback.headers.getSetCookie().find((c) => c.startsWith('summon_console='));
    expect(setCookie).toMatch(/; Path=\/console; HttpOnly; SameSite=Lax; Max-Age=43200$/);
    const html = await (await page('/console', session?.cookie)).text();
    expect(html).toContain('@ada (approver) in default');
    expect(session?.csrf).toMatch(/^[A-Za-z0-9_-]{43}$/);
    for (const path of ['/console/approvals', '/console/usage', '/console/agents'])
      expect((await page(path, session?.cookie)).status).toBe(200);
    // O4: the sign-in is in the audit log, with the session it began.
    const audit = await w.store.inWorkspace(w.workspace.id, (tx) =>
      tx.audit.page(w.workspace.id, { kind: 'console_signed_in' }, null, 10),
    );
    expect(audit.events).toEqual([
      expect.objectContaining({
        kind: 'console_signed_in',
        where: 'console',
        subject: 'member ada',
        detail: { via: 'slack', role: 'approver' },
      }),
    ]);
  });

  it('O5 a forged state is refused before any code is exchanged', async () => {
    w.slack.oidc.browserUser = { userId: PEOPLE.ada.slack, teamId: TEAM, name: 'ada' };
    const start = await fetch(`${w.base}/console/auth/slack`, { redirect: 'manual' });
    const authorize = await fetch(start.headers.get('location') ?? '', { redirect: 'manual' });
    const back = new URL(authorize.headers.get('location') ?? '');
    back.searchParams.set('state', 'forged-state-forged-state-forged-state-0000');
    const refused = await fetch(back, {
      redirect: 'manual',
      headers: { cookie: cookiesOf(start).join('; ') },
    });
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain('its state does not match');
    expect(cookiesOf(refused).some((c) => c.startsWith('summon_console='))).toBe(false);
    expect(w.slack.oidc.tokenCalls).toEqual([]);
    // Without the attempt's cookie (another browser), the same address is refused too.
    expect((await fetch(back, { redirect: 'manual' })).status).toBe(403);
  });

  it('O5 a replayed code is refused: Slack takes a code once', async () => {
    w.slack.oidc.browserUser = { userId: PEOPLE.ada.slack, teamId: TEAM, name: 'ada' };
    const first = await fetch(`${w.base}/console/auth/slack`, { redirect: 'manual' });
    const firstBack = new URL(
      (await fetch(first.headers.get('location') ?? '', { redirect: 'manual' })).headers.get('location') ??
        '',
    );
    expect(
      (await fetch(firstBack, { redirect: 'manual', headers: { cookie: cookiesOf(first).join('; ') } }))
        .status,
    ).toBe(303);
    // A second attempt, answered with the first attempt's (used) code.
    const second = await fetch(`${w.base}/console/auth/slack`, { redirect: 'manual' });
    const state = new URL(second.headers.get('location') ?? '').searchParams.get('state') ?? '';
    const replay = new URL(firstBack);
    replay.searchParams.set('state', state);
    const refused = await fetch(replay, {
      redirect: 'manual',
      headers: { cookie: cookiesOf(second).join('; ') },
    });
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain('Slack refused the sign-in (invalid_code)');
    expect(w.slack.oidc.tokenCalls).toEqual([{ ok: true }, { ok: false, error: 'invalid_code' }]);
  });

  it('P8 a Slack account that is no member, or of another team, gets no session', async () => {
    const stranger = await w.signInWithSlack('U0STRANGER');
    expect(stranger.callback.status).toBe(403);
    expect(await stranger.callback.text()).toContain('is not a member of a Summon workspace');
    expect(stranger.session).toBeNull();
    const otherTeam = await w.signInWithSlack(PEOPLE.ada.slack, 'T0OTHERTEAM');
    expect(otherTeam.callback.status).toBe(403);
    expect(await otherTeam.callback.text()).toContain('(T0OTHERTEAM) is not linked to this Summon');
  });

  it('O5 Sign in with Discord: OAuth2 identify, the member found by their Discord id', async () => {
    await w.store.transaction((tx) =>
      tx.platformBindings.bind(w.workspace.id, 'discord', '222222222222222222'),
    );
    w.discord.browserUser = { id: PEOPLE.ada.discord, username: 'ada' };
    const start = await fetch(`${w.base}/console/auth/discord`, { redirect: 'manual' });
    const authorize = await fetch(start.headers.get('location') ?? '', { redirect: 'manual' });
    expect(w.discord.authorizations[0]?.get('scope')).toBe('identify');
    expect(w.discord.authorizations[0]?.get('client_id')).toBe(DISCORD_CLIENT.clientId);
    const back = authorize.headers.get('location') ?? '';
    const callback = await fetch(back, {
      redirect: 'manual',
      headers: { cookie: cookiesOf(start).join('; ') },
    });
    expect(callback.status).toBe(303);
    const session = cookiesOf(callback).find((c) => c.startsWith('summon_console=')) ?? '';
    expect(await (await page('/console', session)).text()).toContain('@ada (approver)');
    // The same code again (with a fresh attempt's state) is Discord's invalid_grant.
    const again = await fetch(`${w.base}/console/auth/discord`, { redirect: 'manual' });
    const replay = new URL(back);
    replay.searchParams.set(
      'state',
      new URL(again.headers.get('location') ?? '').searchParams.get('state') ?? '',
    );
    const refused = await fetch(replay, {
      redirect: 'manual',
      headers: { cookie: cookiesOf(again).join('; ') },
    });
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain('Discord refused the sign-in (invalid_grant)');
  });

  it('O5 a role change ends the member’s sessions; sign-out ends one; a POST without the CSRF token does nothing', async () => {
    const ada = (await w.signInWithSlack(PEOPLE.ada.slack)).session;
    const vic = (await w.signInWithSlack(PEOPLE.vic.slack)).session;
    if (ada === null || vic === null) throw new Error('not signed in');
    const noToken = await fetch(`${w.base}/console/sign-out`, {
      method: 'POST',
      headers: { cookie: vic.cookie },
      redirect: 'manual',
    });
    expect(noToken.status).toBe(403);
    expect(await noToken.text()).toContain('did not carry the console’s form token (CSRF)');
    expect(await (await page('/console', vic.cookie)).text()).toContain('@vic (viewer)');
    const signOut = await fetch(`${w.base}/console/sign-out`, {
      method: 'POST',
      headers: { cookie: vic.cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ csrf: vic.csrf }),
      redirect: 'manual',
    });
    expect(signOut.status).toBe(303);
    expect(await (await page('/console', vic.cookie)).text()).toContain('Sign in with Slack');

    const adaId = w.members.get('ada')?.id ?? '';
    await w.store.transaction((tx) => tx.members.update(adaId, { role: 'member' }));
    expect(await (await page('/console', ada.cookie)).text()).toContain('Sign in with Slack');
    const rows = await w.store.transaction((tx) => tx.consoleSessions.revokeForMember(adaId, new Date()));
    expect(rows).toBe(0);
  });

  it('O5 a tampered session cookie is no session', async () => {
    const ada = (await w.signInWithSlack(PEOPLE.ada.slack)).session;
    const tampered = `${ada?.cookie.slice(0, -3)}abc`;
    expect(await (await page('/console', tampered)).text()).toContain('Sign in with Slack');
    expect(csrfOf(await (await page('/console', ada?.cookie)).text())).toBe(ada?.csrf);
  });
});
