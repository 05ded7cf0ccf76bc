import { encodeSlackThreadId } from '../../../../src/bots/slack/slack-thread-id';
import type { OutboundMessage } from '../../../../src/core/ports/chat-platform';
import { waitFor } from '../../../support/engine-harness';
import { OutageSwitch, outcomeOf } from '../../../support/outage-switch';
import { CHANNEL } from '../../../support/slack-delivery';
import { openSlackHarness, PEOPLE, type SlackHarness } from '../../../support/slack-harness';

const reply = (text: string): OutboundMessage => ({
  as: { kind: 'agent', name: 'engineer', avatarUrl: 'https://example.com/engineer.png' },
  content: { kind: 'text', text },
});

/** Longer than `RetryingStore`'s first backoff (100 ms): a lookup that did not wait has failed by then. */
const A_WHILE_MS = 300;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * T2, P7: every outgoing Slack call first looks up its channel's owner (which workspace's
 * outbox stores it). During a PostgreSQL restart of seconds that lookup waits for the database,
 * as the outbox does, and the call goes out once it is back. Before, it failed at once: the
 * post was lost, and a session status was taken for Slack's refusal and never sent again for
 * its thread (`engine/service-outages.test.ts`, about 4 runs in 20).
 */
describe('T2, P7: Slack’s outgoing calls wait out a database outage', () => {
  let h: SlackHarness;
  let database: OutageSwitch;
  let root: string;
  let thread: string;
  beforeEach(async () => {
    h = await openSlackHarness({
      frontEndStore: (store) => {
        database = new OutageSwitch(store);
        return database.store;
      },
      standIn: { agentSessions: { enabled: true } },
    });
    root = h.standIn.addPersonMessage(CHANNEL, null, { user: PEOPLE.dana.userId, text: 'hello' });
    thread = encodeSlackThreadId({ channel: CHANNEL, threadTs: root });
  });
  afterEach(() => h.close());

  const posted = () => h.standIn.messages.filter((m) => m.botId !== '').map((m) => m.text);

  it('T2, P7: a post made while the database is away goes out once it is back', async () => {
    database.down();
    const post = outcomeOf(h.front.platform.post(thread, reply('made during the restart')));
    await waitFor(async () => database.refused > 0, 10_000);
    await pause(A_WHILE_MS);
    expect(post.now).toBe('pending');
    expect(posted()).toEqual([]);

    database.up();
    await waitFor(async () => post.now !== 'pending', 10_000);
    expect(post.now).toBe('done');
    expect(posted()).toEqual(['made during the restart']);
  });

  it('T2, P15: a session status set while the database is away is sent once it is back, and the next ones as usual', async () => {
    const session = h.front.platform.turnSession(thread, { initiatorUserId: PEOPLE.dana.userId });
    database.down();
    session.working();
    await waitFor(async () => database.refused > 0, 10_000);
    await pause(A_WHILE_MS);
    expect(h.standIn.agentSessions.find(CHANNEL, root)).toBeUndefined();

    database.up();
    await waitFor(async () => h.standIn.agentSessions.find(CHANNEL, root)?.status === 'processing', 10_000);
    session.waiting();
    await session.end();
    const shown = h.standIn.agentSessions.find(CHANNEL, root);
    expect(shown?.statuses).toEqual(['processing', 'suspended', 'closed']);
    expect(shown?.initiator).toBe(PEOPLE.dana.userId);
  });
});
