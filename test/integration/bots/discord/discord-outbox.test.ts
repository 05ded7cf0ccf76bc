import { encodeDiscordThreadId } from '../../../../src/bots/discord/discord-thread-id';
import type { OutboundMessage } from '../../../../src/core/ports/chat-platform';
import { type DiscordHarness, openDiscordHarness } from '../../../support/discord-harness';
import { RecordingChatEngine } from '../../../support/platform-contract';

const reply = (text: string): OutboundMessage => ({
  as: { kind: 'agent', name: 'engineer', avatarUrl: 'https://example.com/engineer.png' },
  content: { kind: 'text', text },
});
const WEBHOOK_EXECUTE = /^POST \/api\/v10\/webhooks\/[0-9]+\/[^/]+$/;

describe('P7: Discord posts go through the outbox', () => {
  let h: DiscordHarness;
  let thread: string;
  let threadChannel: string;
  beforeEach(async () => {
    h = await openDiscordHarness({
      engine: new RecordingChatEngine(),
      outboxBackoff: { baseMs: 50, maxMs: 200, giveUpMs: 60_000 },
    });
    const start = h.standIn.seed(h.people.mo, h.channel, 'topic');
    threadChannel = h.standIn.startThreadAs(start, 'topic');
    h.frontEnd.platform.knowThread(threadChannel);
    thread = encodeDiscordThreadId({ guild: h.standIn.guildId, channel: h.channel, thread: threadChannel });
  });
  afterEach(async () => {
    await h.close();
  });

  const rows = () =>
    h.store.transaction((tx) =>
      (tx as unknown as { query: <R>(sql: string) => Promise<R[]> }).query<{
        status: string;
        attempts: number;
        payload: string;
        last_error: string | null;
      }>('SELECT status, attempts, payload::text AS payload, last_error FROM outbox ORDER BY seq'),
    );
  const posted = () => h.standIn.messagesIn(threadChannel).map((m) => m.content);
  const executes = () =>
    h.standIn.calls.filter((c) => c.method === 'POST' && /^\/api\/v10\/webhooks\//.test(c.path));
  const workspaceId = async () => {
    const id = await h.frontEnd.platform
      .settled()
      .then(() =>
        h.store.transaction(
          async (tx) => (await tx.platformBindings.find('discord', h.standIn.guildId))?.workspaceId,
        ),
      );
    if (id === undefined) throw new Error('the guild is not bound');
    return id;
  };

  it('a 429 storm: each reply is posted once, in order, no sooner than Discord asked', async () => {
    for (let i = 0; i < 3; i++) h.standIn.rateLimitNext(WEBHOOK_EXECUTE, 0.4);
    const texts = ['one', 'two', 'three', 'four', 'five'];
    const started = Date.now();
    const refs = await Promise.all(texts.map((text) => h.frontEnd.platform.post(thread, reply(text))));
    expect(posted()).toEqual(texts);
    expect(new Set(refs).size).toBe(5);
    const calls = executes();
    expect(calls.filter((c) => c.status === 429)).toHaveLength(3);
    expect(calls.filter((c) => c.status === 200)).toHaveLength(5);
    // Retry-After is 1 s (Discord rounds up in the header); three waits in a row.
    expect(Date.now() - started).toBeGreaterThanOrEqual(2900);
    expect((await rows()).map((r) => r.status)).toEqual(['sent', 'sent', 'sent', 'sent', 'sent']);
    // P2: every post under the agent's own name and avatar.
    const mine = h.standIn.messagesIn(threadChannel);
    expect(
      mine.every(
        (m) => m.author.username === 'engineer' && m.avatar_url === 'https://example.com/engineer.png',
      ),
    ).toBe(true);
  }, 20_000);

  it('5xx answers are retried with backoff and the message is posted once', async () => {
    h.standIn.failNext(WEBHOOK_EXECUTE, 502, 2);
    await h.frontEnd.platform.post(thread, reply('after the outage'));
    expect(posted()).toEqual(['after the outage']);
    expect(executes().map((c) => c.status)).toEqual([502, 502, 200]);
    expect(await rows()).toMatchObject([{ status: 'sent', attempts: 2 }]);
  });

  it('a refusal is not retried: the post fails with Discord’s reason, the row says failed, and no webhook token is stored', async () => {
    const gone = encodeDiscordThreadId({
      guild: h.standIn.guildId,
      channel: h.channel,
      thread: '1234567890',
    });
    h.frontEnd.platform.knowThread('1234567890');
    await expect(h.frontEnd.platform.post(gone, reply('into a thread that does not exist'))).rejects.toThrow(
      /Unknown Channel/,
    );
    expect(executes()).toHaveLength(1);
    await h.frontEnd.platform.post(thread, reply('fine'));
    const stored = await rows();
    expect(stored.map((r) => r.status)).toEqual(['failed', 'sent']);
    expect(stored[0]?.last_error).toContain('10003');
    // Secrets: the stored calls and their errors hold no webhook token, nor does the log.
    const tokens = [...h.standIn.webhooks.values()].map((w) => w.token);
    expect(tokens.length).toBeGreaterThan(0);
    for (const token of tokens) {
      expect(JSON.stringify(stored)).not.toContain(token);
      expect(h.log()).not.toContain(token);
    }
  });

  it('after a restart, a stored post is sent once, in order; one caught mid-send is never sent again', async () => {
    const id = await workspaceId();
    const execute = (text: string) => ({
      channel: h.channel,
      thread: threadChannel,
      body: {
        content: text,
        username: 'engineer',
        embeds: [],
        components: [],
        allowed_mentions: { parse: [], users: [] },
      },
    });
    await h.store.transaction(async (tx) => {
      const sending = await tx.outbox.add({
        workspaceId: id,
        platform: 'discord',
        lane: thread,
        kind: 'webhook.execute',
        payload: execute('maybe already posted'),
      });
      await tx.outbox.markSending(sending.id);
      // P7, T2, A12: its process died mid-send long enough ago that no live sender holds such a mark.
      await (tx as unknown as { query: (sql: string, p: unknown[]) => Promise<unknown> }).query(
        "UPDATE outbox SET sending_since = now() - interval '1 hour' WHERE id = $1",
        [sending.id],
      );
      for (const text of ['stored before the crash', 'and the next one'])
        await tx.outbox.add({
          workspaceId: id,
          platform: 'discord',
          lane: thread,
          kind: 'webhook.execute',
          payload: execute(text),
        });
    });
    await h.restart();
    await h.frontEnd.deliverer.drain();
    expect(posted()).toEqual(['stored before the crash', 'and the next one']);
    expect((await rows()).map((r) => r.status)).toEqual(['failed', 'sent', 'sent']);
    expect(h.standIn.messagesIn(threadChannel).every((m) => m.author.username === 'engineer')).toBe(true);
    await h.restart();
    await h.frontEnd.deliverer.drain();
    expect(posted()).toEqual(['stored before the crash', 'and the next one']);
  });
});
