import { decodeDiscordThreadId } from '../../../../src/bots/discord';
import { type DiscordHarness, openDiscordHarness } from '../../../support/discord-harness';
import { RecordingChatEngine } from '../../../support/platform-contract';

describe('Discord: threads an agent starts (N4, M23)', () => {
  let h: DiscordHarness;
  beforeEach(async () => {
    h = await openDiscordHarness({ engine: new RecordingChatEngine() });
  });
  afterEach(async () => {
    await h.close();
  });

  it('N4: the first message goes to the channel under the agent’s name, a public thread starts from it, the rest of a long message follows inside', async () => {
    const text = `Nightly digest\n${'word '.repeat(600)}`;
    const started = await h.frontEnd.platform.startThread(h.channel, {
      as: { kind: 'agent', name: 'engineer', avatarUrl: null },
      content: { kind: 'text', text },
    });
    const parts = decodeDiscordThreadId(started.thread);
    expect(parts).toEqual({ guild: h.standIn.guildId, channel: h.channel, thread: started.messageRef });
    const first = h.standIn.messagesIn(h.channel).find((m) => m.id === started.messageRef);
    expect(first?.author.username).toBe('engineer');
    expect(first?.webhook_id).toBeDefined();
    const threadCall = h.standIn.calls.find((c) =>
      c.path.endsWith(`/messages/${started.messageRef}/threads`),
    );
    expect(threadCall).toMatchObject({ method: 'POST', status: 200, body: { name: 'Nightly digest' } });
    expect(h.standIn.channels.get(started.messageRef)).toMatchObject({ type: 11, parent_id: h.channel });
    const inside = h.standIn.messagesIn(started.messageRef);
    expect(inside.length).toBeGreaterThan(0);
    const whole = [first, ...inside].map((m) => m?.content ?? '').join(' ');
    expect(whole.replace(/\s+/g, ' ').trim()).toBe(text.replace(/\s+/g, ' ').trim());
    expect(h.standIn.refusals).toEqual([]);
  });

  it('a channel Discord does not know is refused with Discord’s error and nothing is posted', async () => {
    await expect(
      h.frontEnd.platform.startThread('1234567890', {
        as: { kind: 'system' },
        content: { kind: 'text', text: 'hello' },
      }),
    ).rejects.toThrow(/Unknown Channel/);
    expect(h.standIn.calls.filter((c) => c.path.includes('/webhooks/') && c.method === 'POST')).toEqual([]);
  });
});
