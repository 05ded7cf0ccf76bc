import { encodeSlackThreadId } from '../../../../src/bots/slack/slack-thread-id';
import type { OutboundMessage } from '../../../../src/core/ports/chat-platform';
import { CHANNEL } from '../../../support/slack-delivery';
import { openSlackHarness, type SlackHarness } from '../../../support/slack-harness';

const reply = (text: string): OutboundMessage => ({
  as: { kind: 'agent', name: 'engineer', avatarUrl: 'https://example.com/engineer.png' },
  content: { kind: 'text', text },
});

describe('P7: Slack posts go through the outbox', () => {
  let h: SlackHarness;
  let thread: string;
  beforeEach(async () => {
    h = await openSlackHarness();
    thread = encodeSlackThreadId({ channel: CHANNEL, threadTs: h.standIn.addPersonMessage(CHANNEL, null) });
  });
  afterEach(() => h.close());

  const outboxRows = () =>
    h.store.transaction((tx) =>
      (tx as unknown as { query: <R>(sql: string) => Promise<R[]> }).query<{
        status: string;
        attempts: number;
      }>('SELECT status, attempts FROM outbox ORDER BY seq'),
    );
  const posted = () => h.standIn.messages.filter((m) => m.botId !== '').map((m) => m.text);

  it('a 429 storm: each reply is posted once, in order, after waiting Retry-After', async () => {
    h.standIn.failNext('chat.postMessage', { status: 429, retryAfterSeconds: 1 }, 3);
    const texts = ['one', 'two', 'three', 'four', 'five'];
    await Promise.all(texts.map((text) => h.front.platform.post(thread, reply(text))));
    expect(posted()).toEqual(texts);
    const calls = h.standIn.calls.filter((c) => c.method === 'chat.postMessage');
    expect(calls.map((c) => c.status)).toEqual([429, 429, 429, 200, 200, 200, 200, 200]);
    // Each retry came no sooner than Slack asked.
    for (let i = 1; i <= 3; i++) {
      expect((calls[i]?.at ?? 0) - (calls[i - 1]?.at ?? 0)).toBeGreaterThanOrEqual(950);
    }
    expect((await outboxRows()).map((r) => r.status)).toEqual(['sent', 'sent', 'sent', 'sent', 'sent']);
    // P2: every part under the agent's own name and avatar.
    const mine = h.standIn.messages.filter((m) => m.botId !== '');
    expect(
      mine.every((m) => m.username === 'engineer' && m.iconUrl === 'https://example.com/engineer.png'),
    ).toBe(true);
  }, 20_000);

  it('5xx answers are retried with backoff and the message posted once', async () => {
    h.standIn.failNext('chat.postMessage', { status: 503 }, 2);
    await h.front.platform.post(thread, reply('after the outage'));
    expect(posted()).toEqual(['after the outage']);
    expect(await outboxRows()).toEqual([{ status: 'sent', attempts: 2 }]);
  });

  it('a refusal is not retried: the post fails with Slack’s reason and the row says failed', async () => {
    const other = encodeSlackThreadId({ channel: CHANNEL, threadTs: '1764000000.000001' });
    await expect(h.front.platform.post(other, reply('into a thread that does not exist'))).rejects.toThrow(
      /thread_not_found/,
    );
    expect(h.standIn.calls.filter((c) => c.method === 'chat.postMessage')).toHaveLength(1);
    expect((await outboxRows()).map((r) => r.status)).toEqual(['failed']);
  });

  it('P7, T2: after a restart, a stored call is sent once; one its dead process caught mid-send is never sent again', async () => {
    const args = (text: string) => ({ channel: CHANNEL, thread_ts: thread.split(':')[2], text });
    await h.store.transaction(async (tx) => {
      const sending = await tx.outbox.add({
        workspaceId: h.local.workspace.id,
        platform: 'slack',
        lane: thread,
        kind: 'chat.postMessage',
        payload: args('maybe already posted'),
      });
      await tx.outbox.markSending(sending.id);
      // P7, T2, A12: its process died mid-send long enough ago that no live sender holds such a mark.
      await (tx as unknown as { query: (sql: string, p: unknown[]) => Promise<unknown> }).query(
        "UPDATE outbox SET sending_since = now() - interval '1 hour' WHERE id = $1",
        [sending.id],
      );
      await tx.outbox.add({
        workspaceId: h.local.workspace.id,
        platform: 'slack',
        lane: thread,
        kind: 'chat.postMessage',
        payload: args('stored before the crash'),
      });
    });
    // A delivered call from last week is removed at start; this week's are kept.
    await h.store.transaction(async (tx) => {
      const old = await tx.outbox.add({
        workspaceId: h.local.workspace.id,
        platform: 'slack',
        lane: thread,
        kind: 'chat.postMessage',
        payload: args('delivered long ago'),
      });
      await tx.outbox.markSent(old.id, '1.000001');
      await (tx as unknown as { query: (sql: string, p: unknown[]) => Promise<unknown> }).query(
        "UPDATE outbox SET created_at = now() - interval '8 days' WHERE id = $1",
        [old.id],
      );
    });
    await h.restart();
    await h.front.deliverer.drain();
    expect(posted()).toEqual(['stored before the crash']);
    expect((await outboxRows()).map((r) => r.status)).toEqual(['failed', 'sent']);
    await h.restart();
    await h.front.deliverer.drain();
    expect(posted()).toEqual(['stored before the crash']);
  });

  it('a reply of 100,000 characters arrives whole, in order, in parts under Slack’s limit, code fences intact', async () => {
    const lines: string[] = [];
    for (let i = 0; lines.join('\n').length < 100_000; i++) {
      lines.push(
        i % 40 === 0
          ? '```ts'
          : i % 40 === 39
            ? '```'
            : `line ${String(i).padStart(6, '0')} ${'x'.repeat(60)}`,
      );
    }
    const text = lines.join('\n').slice(0, 100_000);
    await h.front.platform.post(thread, reply(text));
    const parts = posted();
    expect(parts.length).toBeGreaterThan(2);
    for (const part of parts) expect(part.length).toBeLessThanOrEqual(40_000);
    // Every part but the last closes the fences it opens (the text itself ends inside one).
    for (const part of parts.slice(0, -1)) expect((part.match(/^```/gm) ?? []).length % 2).toBe(0);
    // Nothing lost, nothing reordered: the text's lines, fences aside, come back in order.
    const content = (s: string) => s.split('\n').filter((line) => line !== '' && !line.startsWith('```'));
    expect(content(parts.join('\n'))).toEqual(content(text));
  });
});
