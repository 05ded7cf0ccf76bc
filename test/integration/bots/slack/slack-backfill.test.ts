import { slackTsCursor } from '../../../../src/bots/slack/inbound/slack-backfill';
import type { Logger } from '../../../../src/core/ports/logger';
import { waitFor } from '../../../support/engine-harness';
import { replies, ScriptedRunner } from '../../../support/scripted-runner';
import { CHANNEL, eventFrom } from '../../../support/slack-delivery';
import { openSlackHarness, PEOPLE, type SlackHarness } from '../../../support/slack-harness';

type Query = { query: <R>(sql: string, params?: unknown[]) => Promise<R[]> };

/**
 * P11 for Slack: what bound channels and active threads received while the Socket Mode client
 * was away (reconnecting, or the process down) is fetched with `conversations.history` /
 * `conversations.replies` and taken in oldest first through the inbox; P6 (`{channel}:{ts}`)
 * keeps each message to one turn.
 */
describe('P11, P6: Slack back-fill after a Socket Mode reconnect or a restart', () => {
  let h: SlackHarness;
  let runner: ScriptedRunner;

  beforeEach(async () => {
    runner = new ScriptedRunner({}, replies('on it'));
    // One message per page: `has_more` and `next_cursor` are followed.
    h = await openSlackHarness({ runner, socketMode: true, backfill: { pageSize: 1 } });
    await waitFor(async () => h.socket?.connected === true);
    await h.front.idle();
  });
  afterEach(() => h.close());

  const sql = <R>(text: string, params: unknown[] = []) =>
    h.store.transaction((tx) => (tx as unknown as Query).query<R>(text, params));
  /** The text of each message that started a turn (sorted: threads are routed side by side). */
  const answered = () =>
    sql<{ text: string }>('SELECT m.text FROM runs r JOIN messages m ON m.id = r.trigger_message_id').then(
      (rows) => rows.map((row) => row.text).sort(),
    );
  const settledRuns = (count: number) =>
    waitFor(async () => {
      const runs = await h.runs();
      return runs.length >= count && runs.every((r) => r.status === 'succeeded') ? runs : null;
    });
  /** The inbox's event ids in the order they were taken in. */
  const inboxOrder = () =>
    sql<{ event_id: string }>('SELECT event_id FROM inbound_inbox ORDER BY seq').then((rows) =>
      rows.map((row) => row.event_id),
    );

  /** A message said in Slack and delivered as an event. */
  const sayLive = async (text: string, threadTs: string | null = null) => {
    const ts = h.standIn.addPersonMessage(CHANNEL, threadTs, { user: PEOPLE.dana.userId, text });
    const event = eventFrom(threadTs === null ? 'message-channel' : 'message-thread-reply', {
      ts,
      user: PEOPLE.dana.userId,
      text,
      ...(threadTs === null ? {} : { thread_ts: threadTs }),
    });
    await h.socket?.send('events_api', event);
    return { ts, event };
  };
  /** A message said in Slack while Summon was away: stored, never delivered as an event. */
  const sayInGap = (text: string, threadTs: string | null = null) =>
    h.standIn.addPersonMessage(CHANNEL, threadTs, { user: PEOPLE.mia.userId, text });

  const reconnect = async () => {
    const opened = h.standIn.okCalls('apps.connections.open').length;
    h.socket?.sendDisconnect();
    await waitFor(
      async () => h.standIn.okCalls('apps.connections.open').length > opened && h.socket?.connected === true,
    );
  };

  it('P11: three messages said during a reconnect are each answered once, in the order they were said', async () => {
    const first = await sayLive('first, before the gap');
    await settledRuns(1);

    const one = sayInGap('gap one');
    const two = sayInGap('gap two, in the thread', first.ts);
    const three = sayInGap('gap three');
    // Slack rate-limits the first read: the WebClient waits its Retry-After and asks again.
    h.standIn.failNext('conversations.history', { status: 429, retryAfterSeconds: 1 });
    await reconnect();
    await h.front.idle();
    await settledRuns(4);
    await h.engine?.inboxSettled();

    expect(await answered()).toEqual(
      ['first, before the gap', 'gap one', 'gap two, in the thread', 'gap three'].sort(),
    );
    // Oldest first across the channel and its thread, one inbox row each.
    expect(await inboxOrder()).toEqual([first.ts, one, two, three].map((ts) => `${CHANNEL}:${ts}`));
    // The channel's history after the last processed message, page by page (newest first from Slack).
    const history = h.standIn.okCalls('conversations.history');
    expect(history.length).toBeGreaterThan(0);
    expect(history.every((c) => c.params.channel === CHANNEL && c.params.limit === '1')).toBe(true);
    expect(history.some((c) => c.params.oldest === first.ts && c.params.cursor === undefined)).toBe(true);
    expect(history.some((c) => typeof c.params.cursor === 'string')).toBe(true);
    const thread = h.standIn.okCalls('conversations.replies');
    expect(thread.some((c) => c.params.ts === first.ts && c.params.oldest === first.ts)).toBe(true);
    expect(
      h.standIn.calls.filter((c) => c.method.startsWith('conversations.') && !c.ok).map((c) => c.status),
    ).toEqual([429]);
    expect(runner.requests).toHaveLength(4);
  });

  it('P6: a message back-filled and later delivered as an event (Slack catching up) is answered once', async () => {
    const first = await sayLive('first, before the gap');
    await settledRuns(1);

    const late = sayInGap('said during the gap');
    await reconnect();
    await h.front.idle();
    await settledRuns(2);

    // Slack delivers the event after all: the inbox already holds `{channel}:{ts}`.
    await h.socket?.send(
      'events_api',
      eventFrom('message-channel', { ts: late, user: PEOPLE.mia.userId, text: 'said during the gap' }),
    );
    // And a second reconnect reads the same stretch again: nothing is newer than the cursor.
    await reconnect();
    await h.front.idle();
    await h.engine?.inboxSettled();

    expect(await answered()).toEqual(['first, before the gap', 'said during the gap'].sort());
    expect(await inboxOrder()).toEqual([first.ts, late].map((ts) => `${CHANNEL}:${ts}`));
    expect(runner.requests).toHaveLength(2);
  });

  it('P11: a restarted process (a new front end on the same database) back-fills what was said while it was down', async () => {
    const first = await sayLive('first, before the restart');
    await settledRuns(1);
    const before = h.front;

    const one = sayInGap('while down, in the thread', first.ts);
    const two = sayInGap('while down, in the channel');
    await h.restart();
    expect(h.front).not.toBe(before);
    await waitFor(async () => h.socket?.connected === true);
    await h.front.idle();
    await settledRuns(3);
    await h.engine?.inboxSettled();

    expect(await answered()).toEqual(
      ['first, before the restart', 'while down, in the thread', 'while down, in the channel'].sort(),
    );
    expect(await inboxOrder()).toEqual([first.ts, one, two].map((ts) => `${CHANNEL}:${ts}`));
    expect(runner.requests).toHaveLength(3);
  });
});

describe('P11: what the Slack back-fill cannot read, and its page cap', () => {
  const GONE = 'C0GONE0001';

  it('a bound channel the bot was removed from (not_in_channel) is a warning and the others are read; the page cap stops with a log line', async () => {
    const warnings: { fields: Record<string, unknown>; message: string }[] = [];
    const logger: Logger = {
      debug: () => {},
      info: () => {},
      warn: (fields, message) => warnings.push({ fields: fields as Record<string, unknown>, message }),
      error: () => {},
      child: () => logger,
    };
    const runner = new ScriptedRunner({}, replies('on it'));
    const h = await openSlackHarness({
      runner,
      socketMode: true,
      logger,
      // The bot is a member of the harness's channel only.
      standIn: { channels: [CHANNEL] },
      backfill: { pageSize: 1, maxPages: 1 },
    });
    try {
      await waitFor(async () => h.socket?.connected === true);
      await h.front.idle();
      // A second bound channel Summon once read, which the bot has since left.
      await h.store.transaction((tx) => tx.channelBindings.bind(h.local.space.id, 'slack', GONE));
      await h.store.transaction((tx) =>
        tx.channelCursors.advance('slack', {
          channelId: GONE,
          parentChannelId: null,
          messageId: slackTsCursor('1764700000.000001'),
        }),
      );
      const first = h.standIn.addPersonMessage(CHANNEL, null, { user: PEOPLE.dana.userId, text: 'first' });
      await h.socket?.send(
        'events_api',
        eventFrom('message-channel', { ts: first, user: PEOPLE.dana.userId, text: 'first' }),
      );
      await waitFor(async () => (await h.runs()).length === 1);
      h.standIn.addPersonMessage(CHANNEL, null, { user: PEOPLE.mia.userId, text: 'older, past the cap' });
      h.standIn.addPersonMessage(CHANNEL, null, { user: PEOPLE.mia.userId, text: 'newest' });

      const opened = h.standIn.okCalls('apps.connections.open').length;
      h.socket?.sendDisconnect();
      await waitFor(
        async () =>
          h.standIn.okCalls('apps.connections.open').length > opened && h.socket?.connected === true,
      );
      await h.front.idle();
      const runs = await waitFor(async () => {
        const all = await h.runs();
        return all.length === 2 && all.every((r) => r.status === 'succeeded') ? all : null;
      });
      await h.engine?.inboxSettled();

      expect(runs).toHaveLength(2);
      expect(
        warnings.find((w) => w.message === 'back-fill of a Slack conversation failed')?.fields,
      ).toMatchObject({ slackError: 'not_in_channel', channelId: GONE });
      // One page of one message (newest first): the older message of the gap is left, and said so.
      expect(warnings.find((w) => w.message.includes('page cap'))?.fields).toMatchObject({
        method: 'conversations.history',
        channel: CHANNEL,
        pages: 1,
      });
      expect(h.standIn.calls.find((c) => c.params.channel === GONE)?.error).toBe('not_in_channel');
    } finally {
      await h.close();
    }
  });
});

describe('P11: Slack back-fill over HTTP', () => {
  it('a restarted process without Socket Mode back-fills once after start', async () => {
    const runner = new ScriptedRunner({}, replies('on it'));
    const h = await openSlackHarness({ runner });
    try {
      await h.front.idle();
      const first = h.standIn.addPersonMessage(CHANNEL, null, { user: PEOPLE.dana.userId, text: 'first' });
      const response = await h.deliver(
        eventFrom('message-channel', { ts: first, user: PEOPLE.dana.userId, text: 'first' }),
      );
      expect(response.status).toBe(200);
      await waitFor(async () => (await h.runs()).length === 1);
      const down = h.standIn.addPersonMessage(CHANNEL, null, { user: PEOPLE.mia.userId, text: 'while down' });

      await h.restart();
      await h.front.idle();
      const runs = await waitFor(async () => {
        const all = await h.runs();
        return all.length === 2 && all.every((r) => r.status === 'succeeded') ? all : null;
      });
      await h.engine?.inboxSettled();
      expect(runs).toHaveLength(2);
      expect(
        h.standIn
          .okCalls('conversations.history')
          .some((c) => c.params.oldest === first && c.params.channel === CHANNEL),
      ).toBe(true);
      const rows = await h.store.transaction((tx) =>
        (tx as unknown as Query).query<{ event_id: string }>(
          'SELECT event_id FROM inbound_inbox ORDER BY seq',
        ),
      );
      expect(rows.map((row) => row.event_id)).toEqual([first, down].map((ts) => `${CHANNEL}:${ts}`));
    } finally {
      await h.close();
    }
  });
});
