import { runCli } from '../../../../src/cli/main';
import { waitFor } from '../../../support/engine-harness';
import { ScriptedRunner } from '../../../support/scripted-runner';
import { CHANNEL, eventFrom, fixture } from '../../../support/slack-delivery';
import { openSlackHarness, PEOPLE, type SlackHarness, STRANGER } from '../../../support/slack-harness';
import { makeTempDir } from '../../../support/temp-dir';

describe('/summon and member invites (P8)', () => {
  let h: SlackHarness;
  beforeEach(async () => {
    h = await openSlackHarness({
      runner: new ScriptedRunner({}, (request) => [{ type: 'final', text: `${request.agent.name} here` }]),
    });
  });
  afterEach(() => h.close());

  const summon = async (text: string, userId: string = PEOPLE.dana.userId) => {
    const response = await h.deliver({ ...fixture('slash-command'), text, user_id: userId });
    expect(response.status).toBe(200);
    const body = JSON.parse(response.body) as { response_type: string; text: string };
    expect(body.response_type).toBe('ephemeral');
    return body.text;
  };

  it('an admin invites by CLI; the stranger redeems the code once with /summon link-account and can start work', async () => {
    const dataDir = await makeTempDir();
    const out: string[] = [];
    const code = await runCli(['members', 'invite', 'newbie', '--role', 'member'], {
      output: { out: (t) => out.push(t), err: (t) => out.push(t) },
      env: { DATABASE_URL: h.databaseUrl, SUMMON_DATA_DIR: dataDir.path, LOG_LEVEL: 'error' },
      cwd: dataDir.path,
    });
    await dataDir.remove();
    expect(code).toBe(0);
    const invite = /link-account ([A-Z0-9-]+)/.exec(out.join('\n'))?.[1];
    if (invite === undefined) throw new Error(`no code in ${out.join('\n')}`);
    // Only the hash is stored.
    const stored = await h.read((tx) =>
      (tx as unknown as { query: <R>(sql: string) => Promise<R[]> }).query<{ code_hash: string }>(
        'SELECT code_hash FROM member_invites',
      ),
    );
    expect(JSON.stringify(stored)).not.toContain(invite);

    // Before linking, the stranger is told how to link.
    const ts = h.standIn.addPersonMessage(CHANNEL, null);
    await h.deliver(eventFrom('message-channel', { ts, user: STRANGER, text: '@engineer hi' }));
    await waitFor(async () =>
      h.standIn.messages.some((m) => m.threadTs === ts && m.text.includes('link-account')),
    );

    expect(await summon(`link-account ${invite.toLowerCase()}`, STRANGER)).toMatch(
      /you are @newbie \(member\)/,
    );
    expect(await summon(`link-account ${invite}`, 'U0SOMEONE1')).toMatch(/already used/);
    expect(await summon('link-account NOPE-NOPE', 'U0SOMEONE1')).toMatch(/not valid/);

    const ts2 = h.standIn.addPersonMessage(CHANNEL, null);
    await h.deliver(eventFrom('message-channel', { ts: ts2, user: STRANGER, text: '@engineer hi' }));
    await waitFor(async () =>
      h.standIn.messages.some(
        (m) => m.threadTs === ts2 && m.username === 'engineer' && m.text === 'engineer here',
      ),
    );
  });

  it('help, agents, status for members; link, unlink and dedicated only for owners and admins', async () => {
    expect(await summon('')).toContain('link-account <code>');
    expect(await summon('agents', PEOPLE.mia.userId)).toMatch(/\*engineer\*/);
    expect(await summon('status', PEOPLE.vic.userId)).toContain('No turns in progress.');
    expect(await summon('link general', PEOPLE.mia.userId)).toMatch(/Only owners and admins.*member/);
    expect(await summon('agents', STRANGER)).toMatch(/not a member/);
    expect(await summon('dedicated maybe')).toMatch(/Usage/);
    expect(await summon('dedicated off')).toMatch(/Not dedicated/);
    const space = await h.read((tx) => tx.spaces.findByName(h.local.workspace.id, 'general'));
    expect(space?.dedicated).toBe(false);
    // P16: whether a message while an agent works joins its turn, for owners and admins only.
    expect(await summon('while-running later')).toMatch(/Usage/);
    expect(await summon('while-running queue', PEOPLE.mia.userId)).toMatch(/Only owners and admins/);
    expect(await summon('while-running queue')).toMatch(/^Queue:/);
    expect((await h.read((tx) => tx.spaces.findByName(h.local.workspace.id, 'general')))?.whileRunning).toBe(
      'queue',
    );
    expect(await summon('while-running steer')).toMatch(/^Steer:/);
    expect(await summon('unlink')).toMatch(/no longer linked/);
    expect(await h.read((tx) => tx.channelBindings.find('slack', CHANNEL))).toBeNull();
    expect(await summon('link nowhere')).toMatch(/no space "nowhere".*general/);
    expect(await summon('link general')).toMatch(/now linked to space \*general\*/);
    expect(await h.read((tx) => tx.channelBindings.find('slack', CHANNEL))).not.toBeNull();
    expect(await summon('frobnicate')).toMatch(/Unknown command `frobnicate`/);
  });
});
