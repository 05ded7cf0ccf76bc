import { encodeDiscordThreadId } from '../../../../src/bots/discord/discord-thread-id';
import type { OutboundMessage } from '../../../../src/core/ports/chat-platform';
import { type DiscordHarness, openDiscordHarness } from '../../../support/discord-harness';
import { waitFor } from '../../../support/engine-harness';
import { OutageSwitch, outcomeOf } from '../../../support/outage-switch';
import { RecordingChatEngine } from '../../../support/platform-contract';

const reply = (text: string): OutboundMessage => ({
  as: { kind: 'agent', name: 'engineer', avatarUrl: 'https://example.com/engineer.png' },
  content: { kind: 'text', text },
});

/** Longer than `RetryingStore`'s first backoff (100 ms): a lookup that did not wait has failed by then. */
const A_WHILE_MS = 300;

/**
 * T2, P7: a Discord post first looks up its guild's members and workspace (which workspace's
 * outbox stores it). During a PostgreSQL restart of seconds that lookup waits for the database,
 * as the outbox does, and the post goes out once it is back; before, it failed at once.
 */
describe('T2, P7: Discord’s outgoing calls wait out a database outage', () => {
  let h: DiscordHarness;
  let database: OutageSwitch;
  afterEach(() => h.close());

  it('T2, P7: a post made while the database is away goes out once it is back', async () => {
    h = await openDiscordHarness({
      engine: new RecordingChatEngine(),
      frontEndStore: (store) => {
        database = new OutageSwitch(store);
        return database.store;
      },
    });
    const start = h.standIn.seed(h.people.mo, h.channel, 'topic');
    const threadChannel = h.standIn.startThreadAs(start, 'topic');
    h.frontEnd.platform.knowThread(threadChannel);
    const thread = encodeDiscordThreadId({
      guild: h.standIn.guildId,
      channel: h.channel,
      thread: threadChannel,
    });
    const posted = () => h.standIn.messagesIn(threadChannel).map((m) => m.content);

    database.down();
    const post = outcomeOf(h.frontEnd.platform.post(thread, reply('made during the restart')));
    await waitFor(async () => database.refused > 0, 10_000);
    await new Promise((resolve) => setTimeout(resolve, A_WHILE_MS));
    expect(post.now).toBe('pending');
    expect(posted()).toEqual([]);

    database.up();
    await waitFor(async () => post.now !== 'pending', 10_000);
    expect(post.now).toBe('done');
    expect(posted()).toEqual(['made during the restart']);
  });
});
