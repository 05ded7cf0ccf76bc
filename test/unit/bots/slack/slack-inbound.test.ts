import { personMessageOf } from '../../../../src/bots/slack/inbound/slack-inbound';
import { fixture } from '../../../support/slack-delivery';

/**
 * T4: the Slack listeners' front door takes a person's message in ahead of Bolt's listener
 * chains; everything else goes on to them. Judged on recorded, anonymised payloads.
 */
describe('personMessageOf', () => {
  it.each(['message-channel', 'message-thread-reply', 'message-im', 'app-mention', 'message-bot-own-post'])(
    'T4: %s is a message event, taken in with its team and event id',
    (name) => {
      const body = fixture(name);
      const taken = personMessageOf(body);
      expect(taken).not.toBeNull();
      expect(taken?.event).toBe(body.event);
      expect(taken?.teamId).toBe(body.team_id);
      expect(taken?.eventId).toBe(body.event_id);
    },
  );

  it.each([
    'app-home-opened',
    'agent-session-stopped',
    'block-actions-approve',
    'slash-command',
    'view-submission',
  ])('T4: %s goes on to the listeners', (name) => {
    expect(personMessageOf(fixture(name))).toBeNull();
  });

  it('T4: a delivery without an event, or not an object, goes on to the listeners (Bolt answers it)', () => {
    expect(personMessageOf({ type: 'event_callback' })).toBeNull();
    expect(personMessageOf({ type: 'event_callback', event: null })).toBeNull();
    expect(personMessageOf({ type: 'url_verification', challenge: 'x' })).toBeNull();
    expect(personMessageOf('message')).toBeNull();
    expect(personMessageOf(null)).toBeNull();
  });

  it('T4: a team or event id that is not a string is left out, for the listener to refuse', () => {
    const body = { ...fixture('message-channel'), team_id: 42, event_id: undefined };
    expect(personMessageOf(body)).toMatchObject({ teamId: undefined, eventId: undefined });
  });
});
