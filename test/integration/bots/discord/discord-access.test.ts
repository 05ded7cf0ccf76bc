import { exportWorkspace } from '../../../../src/core/workspace/export-workspace';
import { type DiscordHarness, openDiscordHarness, visibleText } from '../../../support/discord-harness';
import { held, waitFor } from '../../../support/engine-harness';
import { replies, ScriptedRunner } from '../../../support/scripted-runner';
import { GUILD_MEMBERS_INTENT } from '../../../support/stand-ins/discord/discord-guild-members';
import type { StandInUser } from '../../../support/stand-ins/discord/discord-stand-in';

const EPHEMERAL = 64;

/**
 * P24 on Discord: people admitted by server role (roles from GUILD_CREATE, messages and
 * interactions; GUILD_MEMBER_UPDATE live), refused with a sentence that says which roles admit.
 */
describe('P24: Discord access by server role', () => {
  let h: DiscordHarness;
  let roles: { contributors: string; maintainers: string };
  let ada: StandInUser;
  let bea: StandInUser;
  let lowered: StandInUser;
  let release: () => void = () => {};

  const open = async (engineer = replies('on it')) => {
    h = await openDiscordHarness({
      runner: new ScriptedRunner({ engineer }),
      guild: (standIn, people) => {
        roles = {
          contributors: standIn.members.addRole('contributors'),
          maintainers: standIn.members.addRole('maintainers'),
        };
        ada = { id: standIn.newId(), username: 'ada' };
        bea = { id: standIn.newId(), username: 'bea' };
        lowered = { id: standIn.newId(), username: 'lowered' };
        standIn.members.set(ada, [roles.contributors]);
        standIn.members.set(bea, [roles.maintainers], 'Bea Maintainer');
        standIn.members.set(lowered, [roles.maintainers]);
        standIn.members.set(people.stranger, []);
        return {
          members: `  - { nickname: lowered, role: viewer, discord: "${lowered.id}" }`,
          file: `access:
  - { discord: { role: "${roles.contributors}" }, role: member }
  - { discord: { role: "${roles.maintainers}" }, role: approver }
`,
        };
      },
    });
  };
  const memberOf = (userId: string) =>
    h.inAcme(async (tx, id) => (await tx.members.list(id)).find((m) => m.discordUserId === userId) ?? null);

  /** The paths a test expects Discord to refuse (a member not in the server: 10007). */
  let refusedOnPurpose: string[] = [];
  afterEach(async () => {
    release();
    await h.close();
    expect(h.standIn.refusals.map((c) => c.path)).toEqual(refusedOnPurpose);
    refusedOnPurpose = [];
  });

  it('P24, M10: a person with a mapped role and no entry starts work and becomes a member “via role”; export leaves them out; the members intent was asked for', async () => {
    await open();
    expect(Number(h.standIn.gateway.identifies.at(-1)?.intents) & GUILD_MEMBERS_INTENT).toBe(
      GUILD_MEMBERS_INTENT,
    );
    const asked = h.standIn.say(ada, h.channel, '@engineer fix the login bug');
    await h.waitInThread(asked, (m) => m.content === 'on it');
    await h.settled(1);
    const member = await memberOf(ada.id);
    expect(member).toMatchObject({
      nickname: 'ada',
      role: 'member',
      accessVia: `discord:role:${roles.contributors}`,
      accessViaName: 'contributors',
    });
    // A second message finds the same record (no second member).
    h.standIn.say(ada, h.channel, '@engineer and the signup bug');
    await h.settled(2);
    const all = await h.inAcme((tx, id) => tx.members.list(id));
    expect(all.filter((m) => m.discordUserId === ada.id)).toHaveLength(1);
    // M10: the admitted person is a person others can name.
    const named = h.standIn.say(h.people.dana, h.channel, `@engineer ask <@${ada.id}> to review`);
    await h.settled(3);
    const [stored] = await h.db.database.store.transaction((tx) =>
      tx.query<{ mentions: { members: { nickname: string; memberId: string }[] } }>(
        'SELECT mentions FROM messages WHERE platform_message_ref = $1',
        [named.id],
      ),
    );
    expect(stored?.mentions.members).toEqual([{ nickname: 'ada', memberId: member?.id }]);
    const file = await h.store.transaction((tx) => exportWorkspace(tx, 'acme'));
    expect(file.members?.map((m) => m.nickname)).toEqual(['dana', 'mo', 'lowered']);
  });

  it('P24, P8: without a listed role: told privately, once, which roles admit and how to link; nothing runs', async () => {
    await open();
    const stranger = h.people.stranger;
    const first = h.standIn.say(stranger, h.channel, '@engineer delete everything');
    const told = await waitFor(async () => h.standIn.directMessagesTo(stranger.id)[0] ?? null);
    expect(told.content).toContain('@contributors');
    expect(told.content).toContain('@maintainers');
    expect(told.content).toContain('/summon link-account');
    h.standIn.say(stranger, h.channel, '@engineer please');
    await waitFor(async () => (h.log().match(/message refused/g)?.length ?? 0) >= 2);
    await h.frontEnd.idle();
    expect(h.standIn.directMessagesTo(stranger.id)).toHaveLength(1);
    expect(await h.runs()).toEqual([]);
    expect(h.thread(first)).toEqual([]);
    expect(await memberOf(stranger.id)).toBeNull();
  });

  it('P24: an explicit member entry lowers what a role gives (viewer: refused, nothing runs)', async () => {
    await open();
    const asked = h.standIn.say(lowered, h.channel, '@engineer fix it');
    await waitFor(async () => (h.log().includes('message refused') ? true : null));
    await h.frontEnd.idle();
    expect(await h.runs()).toEqual([]);
    expect((await memberOf(lowered.id))?.role).toBe('viewer');
    expect(asked.id).toBeDefined();
  });

  it('P24, G4, P8: the role removed by GUILD_MEMBER_UPDATE: the next mention is refused and the Approve click on a waiting card too', async () => {
    const turn = held('pushed');
    release = turn.release;
    await open(turn.script);
    // Bea, an approver by role, decides nothing yet: she starts a turn that waits for approval.
    const asked = h.standIn.say(bea, h.channel, '@engineer push the fix');
    const [run] = await waitFor(async () => {
      const runs = await h.runs();
      return runs.length === 1 && runs[0]?.status === 'running' ? runs : null;
    });
    expect(await memberOf(bea.id)).toMatchObject({ nickname: 'bea-maintainer', role: 'approver' });
    const engine = h.engine;
    if (engine === null || run === undefined) throw new Error('no engine');
    const approval = await engine.requestApproval({
      runId: run.id,
      action: 'push_to_remote',
      details: { summary: 'push 2 commits to acme/api main', lines: [] },
    });
    const card = await h.waitInThread(
      asked,
      (m) => m.components.length > 0 && (m.embeds[0]?.title ?? '').includes(' asks to '),
    );
    const approve = card.components[0]?.components?.[0];

    h.standIn.members.update(bea, []);
    await waitFor(async () => {
      const cached = h.frontEnd.client.guilds.cache.get(h.standIn.guildId)?.members.cache.get(bea.id);
      return cached !== undefined && !cached.roles.cache.has(roles.maintainers);
    });
    const refused = h.standIn.click(bea, card, approve?.custom_id ?? '');
    await waitFor(async () => refused.followUps.length === 1);
    expect(refused.followUps[0]?.flags).toBe(EPHEMERAL);
    expect(refused.followUps[0]?.content).toMatch(/only members/i);
    expect(await engine.approvalState(approval.id)).toBe('pending');

    const next = h.standIn.say(bea, h.channel, '@engineer one more thing');
    const sentence = await h.waitInThread(next.id, (m) => visibleText(m).includes('not a member'));
    expect(visibleText(sentence)).toContain('@maintainers');
    expect((await h.runs()).length).toBe(1);
  });

  it('P24, P8: GUILD_MEMBER_REMOVE (the person left the server): their next message is refused', async () => {
    await open();
    const asked = h.standIn.say(ada, h.channel, '@engineer fix the login bug');
    await h.waitInThread(asked, (m) => m.content === 'on it');
    h.standIn.members.remove(ada);
    await waitFor(async () =>
      h.frontEnd.client.guilds.cache.get(h.standIn.guildId)?.members.cache.has(ada.id) === false
        ? true
        : null,
    );
    const next = h.standIn.say(ada, h.channel, '@engineer and another');
    const sentence = await h.waitInThread(next.id, (m) => visibleText(m).includes('not a member'));
    expect(visibleText(sentence)).toContain('@contributors');
    expect(await h.runs()).toHaveLength(1);
  });

  it('P24, P11: someone the new session’s member cache lacks (a large guild, a back-filled message): their roles are fetched with GET /guilds/{id}/members/{user}, once; someone not in the server is refused', async () => {
    await open();
    // The channel's last message processed: the back-fill reads what follows it.
    const first = h.standIn.say(h.people.dana, h.channel, '@engineer first');
    await h.waitInThread(first, (m) => m.content === 'on it');
    await h.settled(1);
    h.standIn.members.large = true;
    h.standIn.gateway.drop({ resumable: false });
    // Said while Summon is away: only the back-fill (REST messages carry no member) brings them.
    const asked = h.standIn.say(ada, h.channel, '@engineer fix the login bug');
    const left = { id: h.standIn.newId(), username: 'left' };
    const stray = h.standIn.say(left, h.channel, '@engineer delete the logs');
    const ready = h.standIn.gateway.nextReady();
    h.standIn.gateway.restore();
    await ready;
    await h.waitInThread(asked, (m) => m.content === 'on it');
    await h.settled(2);
    const fetched = (user: string) =>
      h.standIn.calls.filter(
        (c) => c.method === 'GET' && c.path.endsWith(`/guilds/${h.standIn.guildId}/members/${user}`),
      );
    expect(fetched(ada.id)).toHaveLength(1);
    expect(await memberOf(ada.id)).toMatchObject({
      nickname: 'ada',
      role: 'member',
      accessVia: `discord:role:${roles.contributors}`,
    });
    // Discord answers 10007 (Unknown Member) for someone not in the server: refused, told privately.
    const told = await waitFor(async () => h.standIn.directMessagesTo(left.id)[0] ?? null);
    expect(told.content).toContain('@contributors');
    expect(fetched(left.id)).toHaveLength(1);
    refusedOnPurpose = fetched(left.id).map((c) => c.path);
    expect(await memberOf(left.id)).toBeNull();
    // The fetched member is cached: ada's next message asks Discord nothing more.
    h.standIn.say(ada, h.channel, '@engineer and the signup bug');
    await h.settled(3);
    expect(fetched(ada.id)).toHaveLength(1);
    expect(h.thread(stray)).toEqual([]);
  });

  it('P24, P11: a role removed while the session was gone (no event ever told) refuses after the new session', async () => {
    await open();
    const asked = h.standIn.say(ada, h.channel, '@engineer fix the login bug');
    await h.waitInThread(asked, (m) => m.content === 'on it');
    await h.settled(1);
    h.standIn.gateway.drop({ resumable: false });
    // Discord cannot tell a session that is gone: the next one learns it from GUILD_CREATE and the message's member.
    h.standIn.members.update(ada, []);
    const ready = h.standIn.gateway.nextReady();
    h.standIn.gateway.restore();
    await ready;
    await waitFor(async () => ((h.log().match(/Discord session ready/g)?.length ?? 0) >= 2 ? true : null));
    await h.frontEnd.idle();
    const next = h.standIn.say(ada, h.channel, '@engineer and another');
    await h.waitInThread(next.id, (m) => visibleText(m).includes('not a member'));
    expect(await h.runs()).toHaveLength(1);
  });
});
