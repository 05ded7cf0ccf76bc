import { unknownCommand } from '../../../../src/bots/slack/inbound/slack-unknown-interactions';
import { ACTIONS } from '../../../../src/bots/slack/outbound/slack-cards';
import { FORM_NO_LONGER_ACTIVE, NO_LONGER_ACTIVE } from '../../../../src/core/commands/unknown-interaction';
import { held, waitFor } from '../../../support/engine-harness';
import { ScriptedRunner } from '../../../support/scripted-runner';
import { buttonValue, clickPayload } from '../../../support/slack-clicks';
import { CHANNEL, eventFrom, fixture } from '../../../support/slack-delivery';
import { openSlackHarness, PEOPLE, type SlackHarness } from '../../../support/slack-harness';

/**
 * P17: Bolt, left without a listener, answers 404 after its 3-second timeout and Slack shows the
 * person an error. Every interaction Summon no longer knows is answered with 200 at once.
 */
describe('P17: Slack interactions Summon does not know are answered at once', () => {
  let h: SlackHarness;
  beforeEach(async () => {
    const qa = held('verified');
    h = await openSlackHarness({
      runner: new ScriptedRunner({ engineer: () => [{ type: 'final', text: '@qa verify' }], qa: qa.script }),
    });
  });
  afterEach(() => h.close());

  const clickOn = (actionId: string, userId: string, channel: string, threadTs: string) => {
    const recorded = fixture('block-actions-approve');
    const action = (recorded.actions as Record<string, unknown>[])[0];
    return h.deliver({
      ...recorded,
      user: { ...(recorded.user as object), id: userId },
      container: { ...(recorded.container as object), channel_id: channel, thread_ts: threadTs },
      channel: { id: channel, name: 'general' },
      message: { ...(recorded.message as object), thread_ts: threadTs },
      actions: [{ ...action, action_id: actionId }],
    });
  };

  it('P17: a button of a card from an older version is acknowledged, and the clicker alone is told', async () => {
    const ts = h.standIn.addPersonMessage(CHANNEL, null);
    const response = await clickOn('summon_retry_v0', PEOPLE.mia.userId, CHANNEL, ts);
    expect(response.status).toBe(200);
    await waitFor(async () => h.standIn.ephemerals.some((e) => e.user === PEOPLE.mia.userId));
    expect(h.standIn.ephemerals).toEqual([
      { channel: CHANNEL, user: PEOPLE.mia.userId, text: NO_LONGER_ACTIVE, threadTs: ts },
    ]);
  });

  it('P17, P7: the ack never waits for the sentence: Slack rate-limiting chat.postEphemeral for 4 s, the click is still answered within its 3 s', async () => {
    const ts = h.standIn.addPersonMessage(CHANNEL, null);
    h.standIn.failNext('chat.postEphemeral', { status: 429, retryAfterSeconds: 4 });
    const started = Date.now();
    const response = await clickOn('summon_retry_v0', PEOPLE.mia.userId, CHANNEL, ts);
    expect(response.status).toBe(200);
    expect(Date.now() - started).toBeLessThan(2000);
    // The outbox waits Slack's Retry-After, then the clicker is told, once.
    await waitFor(async () => h.standIn.ephemerals.some((e) => e.user === PEOPLE.mia.userId), 15_000);
    expect(h.standIn.ephemerals).toEqual([
      { channel: CHANNEL, user: PEOPLE.mia.userId, text: NO_LONGER_ACTIVE, threadTs: ts },
    ]);
  });

  it('P17: a link button’s click is acknowledged and tells nobody anything', async () => {
    const recorded = fixture('block-actions-approve');
    const action = (recorded.actions as Record<string, unknown>[])[0];
    const response = await h.deliver({
      ...recorded,
      actions: [{ ...action, action_id: 'open_docs', url: 'https://example.com/docs' }],
    });
    expect(response.status).toBe(200);
    expect(h.standIn.ephemerals).toEqual([]);
  });

  it('P17: a form Summon no longer knows is replaced by one that says so', async () => {
    const response = await h.deliver(fixture('view-submission'));
    expect(response.status).toBe(200);
    expect(JSON.parse(response.body)).toEqual({
      response_action: 'update',
      view: expect.objectContaining({
        type: 'modal',
        blocks: [{ type: 'section', text: { type: 'mrkdwn', text: FORM_NO_LONGER_ACTIVE } }],
      }),
    });
  });

  it('P17: a slash command other than /summon is answered with the command that exists', async () => {
    const response = await h.deliver({ ...fixture('slash-command'), command: '/deploy', text: 'prod' });
    expect(response.status).toBe(200);
    expect(JSON.parse(response.body)).toEqual({
      response_type: 'ephemeral',
      text: unknownCommand('/deploy'),
    });
  });

  it('P17: the buttons Summon knows still reach their listener, and nobody is told "no longer active"', async () => {
    const ts = h.standIn.addPersonMessage(CHANNEL, null);
    await h.deliver(eventFrom('message-channel', { ts, text: '@engineer ship it' }));
    const note = () => h.standIn.inThread(CHANNEL, ts).find((m) => buttonValue(m, ACTIONS.noteFold) !== null);
    await waitFor(async () => note() !== undefined);
    const open = note();
    if (open === undefined) throw new Error('no note');
    expect((await h.deliver(clickPayload(open, PEOPLE.mia.userId, ACTIONS.noteFold))).status).toBe(200);
    await waitFor(async () =>
      h.standIn
        .inThread(CHANNEL, ts)
        .some((m) => m.ts === open.ts && buttonValue(m, ACTIONS.noteOpen) !== null),
    );
    expect(h.standIn.ephemerals).toEqual([]);
  });
});
