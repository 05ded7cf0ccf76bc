import { ACTIONS } from '../../../../src/bots/slack/outbound/slack-cards';
import { held, waitFor } from '../../../support/engine-harness';
import { replies, ScriptedRunner } from '../../../support/scripted-runner';
import { clickPayload } from '../../../support/slack-clicks';
import { CHANNEL, eventFrom, fixture } from '../../../support/slack-delivery';
import { openSlackHarness, PEOPLE, type SlackHarness, STRANGER } from '../../../support/slack-harness';

const LEADS = 'S0LEADS0001';
const LEE = 'U0LEE00001';

/**
 * P24 on Slack: an approver by user group (`usergroups.users.list`) decides cards until
 * `subteam_members_changed` removes them; someone in no listed group is told privately.
 */
describe('P24: Slack access by user group', () => {
  let h: SlackHarness;
  let release: () => void = () => {};
  afterEach(async () => {
    release();
    await h.close();
  });

  const open = async () => {
    const turn = held('pushed');
    release = turn.release;
    h = await openSlackHarness({ runner: new ScriptedRunner({ engineer: turn.script }) });
    h.standIn.usergroups.add(LEADS, 'leads', [LEE]);
    h.standIn.usergroups.person(LEE, 'Lee Lead');
    await h.read((tx) =>
      tx.accessGroups.replace(h.local.workspace.id, [
        { group: { platform: 'slack', kind: 'usergroup', id: LEADS }, role: 'approver' },
      ]),
    );
    return turn;
  };
  const say = async (user: string, text: string, eventId: string) => {
    const ts = h.standIn.addPersonMessage(CHANNEL, null);
    await h.deliver(eventFrom('message-channel', { ts, text, user }, eventId));
    return ts;
  };
  const cardOf = async (ts: string, summary: string) => {
    const found = await waitFor(
      async () =>
        h.standIn.inThread(CHANNEL, ts).find((m) => JSON.stringify(m.blocks ?? []).includes(summary)) ?? null,
    );
    return structuredClone(found);
  };

  it('P24, G4, P8: a user-group approver decides a card; after subteam_members_changed removes them, their click is refused', async () => {
    const turn = await open();
    const ts = await say(PEOPLE.mia.userId, '@engineer push the fix', 'Ev0ACCESS001');
    await turn.started;
    const runId = (await h.runs())[0]?.id ?? '';
    const engine = h.engine;
    if (engine === null) throw new Error('no engine');

    const first = await engine.requestApproval({
      runId,
      action: 'push_to_remote',
      details: { summary: 'push one', lines: [] },
    });
    const firstCard = await cardOf(ts, 'push one');
    expect((await h.deliver(clickPayload(firstCard, LEE, ACTIONS.approve))).status).toBe(200);
    await waitFor(async () => (await engine.approvalState(first.id)) === 'allow');
    const lee = await h.read(async (tx) =>
      (await tx.members.list(h.local.workspace.id)).find((m) => m.slackUserId === LEE),
    );
    expect(lee).toMatchObject({
      nickname: 'lee-lead',
      role: 'approver',
      accessVia: `slack:usergroup:${LEADS}`,
      accessViaName: 'leads',
    });

    const second = await engine.requestApproval({
      runId,
      action: 'push_to_remote',
      details: { summary: 'push two', lines: [] },
    });
    const secondCard = await cardOf(ts, 'push two');
    const changed = h.standIn.usergroups.membersChanged(LEADS, { removed: [LEE] });
    const envelope = { ...fixture('message-channel'), event: changed, event_id: 'Ev0SUBTEAM01' };
    expect((await h.deliver(envelope)).status).toBe(200);
    // The group is read again at the click: Lee is no longer in it.
    expect((await h.deliver(clickPayload(secondCard, LEE, ACTIONS.approve))).status).toBe(200);
    await waitFor(async () => h.standIn.ephemerals.some((e) => e.user === LEE));
    expect(await engine.approvalState(second.id)).toBe('pending');
    expect(h.standIn.calls.filter((c) => c.method === 'usergroups.users.list' && c.ok)).toHaveLength(2);
  });

  it('P24, P8: someone in no listed group is told privately (chat.postEphemeral) which groups admit them; nothing runs', async () => {
    await open();
    await say(STRANGER, '@engineer delete everything', 'Ev0ACCESS002');
    const told = await waitFor(async () => h.standIn.ephemerals.find((e) => e.user === STRANGER) ?? null);
    expect(told.text).toContain('@leads');
    expect(told.text).toContain('/summon link-account');
    expect(await h.runs()).toEqual([]);
  });

  it('P24, P8: the cache holds until Slack tells: after subteam_updated the group is read again and a removed person is refused', async () => {
    await open();
    const first = await say(LEE, '@engineer look at the deploy', 'Ev0ACCESS003');
    await waitFor(async () => ((await h.runs()).length === 1 ? true : null));
    // Removed at Slack, but no event yet: the cached group still admits (nothing read again).
    const changed = h.standIn.usergroups.membersChanged(LEADS, { removed: [LEE] });
    const second = await say(LEE, '@engineer and the rollback', 'Ev0ACCESS004');
    await waitFor(async () => ((await h.runs()).length === 2 ? true : null));
    expect(h.standIn.calls.filter((c) => c.method === 'usergroups.users.list')).toHaveLength(1);
    const updated = {
      type: 'subteam_updated',
      subteam: {
        id: LEADS,
        team_id: changed.team_id,
        is_usergroup: true,
        name: 'leads',
        handle: 'leads',
        description: '',
        users: [],
        user_count: 0,
        date_update: changed.date_update,
      },
      event_ts: '1700000200.000100',
    };
    expect(
      (await h.deliver({ ...fixture('message-channel'), event: updated, event_id: 'Ev0SUBTEAM02' })).status,
    ).toBe(200);
    const third = await say(LEE, '@engineer one more', 'Ev0ACCESS005');
    const refusal = await waitFor(
      async () =>
        h.standIn.inThread(CHANNEL, third).find((m) => (m.text ?? '').includes('not a member')) ?? null,
    );
    expect(refusal.text).toContain('@leads');
    expect(await h.runs()).toHaveLength(2);
    expect(h.standIn.calls.filter((c) => c.method === 'usergroups.users.list')).toHaveLength(2);
    expect([first, second]).toHaveLength(2);
  });

  it('P24, P11: a Socket Mode reconnect drops the cached groups: a removal Slack told nobody of (the gap) refuses the next message, the group read again with usergroups.users.list', async () => {
    h = await openSlackHarness({
      runner: new ScriptedRunner({ engineer: replies('on it') }),
      socketMode: true,
    });
    h.standIn.usergroups.add(LEADS, 'leads', [LEE]);
    h.standIn.usergroups.person(LEE, 'Lee Lead');
    await h.read((tx) =>
      tx.accessGroups.replace(h.local.workspace.id, [
        { group: { platform: 'slack', kind: 'usergroup', id: LEADS }, role: 'member' },
      ]),
    );
    const socket = h.socket;
    if (socket === null) throw new Error('no socket stand-in');
    await waitFor(async () => socket.connected);
    await h.front.idle();
    const sayOverSocket = async (text: string, eventId: string) => {
      const ts = h.standIn.addPersonMessage(CHANNEL, null, { user: LEE, text });
      await socket.send('events_api', {
        ...eventFrom('message-channel', { ts, text, user: LEE }),
        event_id: eventId,
      });
      return ts;
    };
    const groupReads = () => h.standIn.okCalls('usergroups.users.list').length;

    await sayOverSocket('@engineer look at the deploy', 'Ev0RECONN001');
    await waitFor(async () => ((await h.runs()).length === 1 ? true : null));
    expect(groupReads()).toBe(1);
    // Removed while the connection is down: the subteam_members_changed of the gap is never delivered.
    const opened = h.standIn.okCalls('apps.connections.open').length;
    socket.sendDisconnect();
    h.standIn.usergroups.membersChanged(LEADS, { removed: [LEE] });
    await waitFor(async () => h.standIn.okCalls('apps.connections.open').length > opened && socket.connected);
    await h.front.idle();

    const refused = await sayOverSocket('@engineer and the rollback', 'Ev0RECONN002');
    const sentence = await waitFor(
      async () =>
        h.standIn.inThread(CHANNEL, refused).find((m) => (m.text ?? '').includes('not a member')) ?? null,
    );
    expect(sentence.text).toContain('@leads');
    expect(groupReads()).toBe(2);
    expect(await h.runs()).toHaveLength(1);
  });
});
