import { ACTIONS } from '../../../../src/bots/slack/outbound/slack-cards';
import { waitFor } from '../../../support/engine-harness';
import { eventFrom, fixture } from '../../../support/slack-delivery';
import { openSlackHarness, PEOPLE, type SlackHarness } from '../../../support/slack-harness';

describe('Slack over Socket Mode (SLACK_APP_TOKEN)', () => {
  let h: SlackHarness;
  beforeEach(async () => {
    h = await openSlackHarness({ socketMode: true });
  });
  afterEach(() => h.close());

  it('connects with the app token, acks each envelope, and hands events and clicks to the core', async () => {
    const socket = h.socket;
    if (socket === null) throw new Error('no socket stand-in');
    await waitFor(async () => socket.connected);
    expect(h.front.mode).toBe('socket');
    const opened = h.standIn.calls.find((c) => c.method === 'apps.connections.open');
    expect(opened?.ok).toBe(true);

    const envelope = eventFrom('app-mention', { text: '<@U0BOT00001> @engineer status?' });
    expect((await socket.send('events_api', envelope)).envelope_id).toBeDefined();
    await waitFor(async () => h.recording.received.length === 1);
    expect(h.recording.received[0]).toMatchObject({
      platform: 'slack',
      workspace: { platform: 'slack', externalId: 'T0TEAM0001' },
      senderId: PEOPLE.dana.userId,
      text: '@engineer status?',
      topLevel: true,
    });

    // The same event again (Slack's redelivery): the core is asked again and de-duplicates (P6).
    await socket.send('events_api', envelope);
    await waitFor(async () => h.recording.received.length === 2);
    expect(h.recording.received[1]?.eventId).toBe(h.recording.received[0]?.eventId);

    const click = fixture('block-actions-approve');
    await socket.send('interactive', {
      ...click,
      actions: [{ ...(click.actions as object[])[0], action_id: ACTIONS.deny, value: 'ap-1' }],
    });
    await waitFor(async () => h.recording.calls.some((c) => c.kind === 'decideApproval'));
    expect(h.recording.calls.find((c) => c.kind === 'decideApproval')).toMatchObject({
      approvalId: 'ap-1',
      verdict: 'deny',
      actor: { senderId: PEOPLE.dana.userId },
    });
    expect(socket.malformed).toEqual([]);
  });
});
