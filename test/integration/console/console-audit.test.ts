import { type ConsoleWorld, openConsoleWorld, PEOPLE } from '../../support/console-world';

/** O4, O5: the audit log in the web console: filters, export, and only for owners and admins. */
describe('O4, O5 the console’s audit log', () => {
  let w: ConsoleWorld;
  beforeEach(async () => {
    w = await openConsoleWorld();
  });
  afterEach(() => w.close());

  const get = (path: string, cookie: string) => fetch(`${w.base}${path}`, { headers: { cookie } });

  const signedIn = async (person: keyof typeof PEOPLE) => {
    const { session } = await w.signInWithSlack(PEOPLE[person].slack);
    if (session === null) throw new Error(`${person} could not sign in`);
    return session.cookie;
  };

  it('O4, O5 an admin sees the log, filters it, and exports it as CSV and JSON Lines', async () => {
    const ada = w.members.get('ada');
    if (ada === undefined) throw new Error('no ada');
    await w.store.transaction((tx) => tx.members.update(ada.id, { role: 'admin' }));
    const cookie = await signedIn('ada');
    await signedIn('mo');

    const html = await (await get('/console/audit', cookie)).text();
    expect(html).toContain('<a href="/console/audit" aria-current="page">Audit log</a>');
    expect(html.match(/<td>console_signed_in<\/td>/g)).toHaveLength(2);

    const filtered = await (
      await get('/console/audit?since=1h&actor=mo&kind=console_signed_in', cookie)
    ).text();
    expect(filtered.match(/<td>console_signed_in<\/td><td>mo<\/td>/g)).toHaveLength(1);
    expect(filtered).not.toContain('<td>ada</td>');

    const csv = await get('/console/audit/export?format=csv&kind=console_signed_in', cookie);
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(csv.headers.get('content-disposition')).toMatch(
      /^attachment; filename="summon-audit-default-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const lines = (await csv.text()).trim().split('\n');
    expect(lines[0]).toBe('at,kind,actor,actor_kind,where,subject,detail,id');
    expect(lines.slice(1).map((l) => l.split(',').slice(1, 5))).toEqual([
      ['console_signed_in', 'ada', 'member', 'console'],
      ['console_signed_in', 'mo', 'member', 'console'],
    ]);

    const json = await (await get('/console/audit/export?format=json&actor=ada', cookie)).text();
    const rows = json
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(rows.map((r) => [r.kind, r.actor, r.subject])).toEqual([
      ['console_signed_in', 'ada', 'member ada'],
    ]);
    expect(rows[0]?.at).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  });

  it('O4, P8 a member or an approver cannot read it; a bad filter gets a sentence', async () => {
    const mo = await signedIn('mo');
    const page = await get('/console/audit', mo);
    expect(await page.text()).toContain(
      'Your role (member) cannot read the audit log; owners and admins can.',
    );
    expect((await get('/console/audit/export?format=csv', mo)).status).toBe(403);
    expect(await (await get('/console', mo)).text()).not.toContain('Audit log');

    const ada = w.members.get('ada');
    if (ada === undefined) throw new Error('no ada');
    await w.store.transaction((tx) => tx.members.update(ada.id, { role: 'owner' }));
    const owner = await signedIn('ada');
    expect(await (await get('/console/audit?since=yesterday', owner)).text()).toContain(
      'since must be a date (2026-11-01)',
    );
    expect(await (await get('/console/audit?kind=nothing', owner)).text()).toContain(
      'There is no audit kind &quot;nothing&quot;.',
    );
    expect((await get('/console/audit/export?since=soon', owner)).status).toBe(400);
  });
});
