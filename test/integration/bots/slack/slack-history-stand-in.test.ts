import { webApi } from '@slack/bolt';
import { SlackWebApiStandIn } from '../../../support/stand-ins/slack-web-api-stand-in';

/**
 * P11: the stand-in's `conversations.history` / `conversations.replies` answer as Slack's do
 * (shape, order, pagination, refusals), so the back-fill's tests prove something about Slack.
 */
describe('the Slack stand-in reads channels and threads like Slack', () => {
  const CHANNEL = 'C0GENERAL1';
  let standIn: SlackWebApiStandIn;
  let client: webApi.WebClient;

  beforeEach(async () => {
    standIn = new SlackWebApiStandIn({ channels: [CHANNEL] });
    const url = await standIn.listen();
    client = new webApi.WebClient(standIn.token, { slackApiUrl: url, retryConfig: { retries: 0 } });
  });
  afterEach(() => standIn.close());

  const refusal = (call: Promise<unknown>) =>
    call.then(
      () => 'ok',
      (error: { data?: { error?: string } }) => error.data?.error,
    );

  it('history: the channel’s messages after `oldest`, newest first, one page at a time; replies: the root, then its replies oldest first', async () => {
    const root = standIn.addPersonMessage(CHANNEL, null, { user: 'U0DANA0001', text: 'root' });
    const reply = standIn.addPersonMessage(CHANNEL, root, { user: 'U0MIA00001', text: 'reply' });
    const later = standIn.addPersonMessage(CHANNEL, null, { user: 'U0DANA0001', text: 'later' });

    const first = await client.conversations.history({ channel: CHANNEL, limit: 1 });
    expect(first.messages?.map((m) => m.text)).toEqual(['later']);
    expect(first.has_more).toBe(true);
    const cursor = first.response_metadata?.next_cursor ?? '';
    const second = await client.conversations.history({ channel: CHANNEL, limit: 1, cursor });
    expect(second.messages).toEqual([
      {
        type: 'message',
        ts: root,
        text: 'root',
        user: 'U0DANA0001',
        thread_ts: root,
        reply_count: 1,
        latest_reply: reply,
      },
    ]);
    expect(second.has_more).toBe(false);
    expect(
      (await client.conversations.history({ channel: CHANNEL, oldest: root })).messages?.map((m) => m.ts),
    ).toEqual([later]);

    const thread = await client.conversations.replies({ channel: CHANNEL, ts: root, oldest: reply });
    expect(thread.messages?.map((m) => m.text)).toEqual(['root']);
    const all = await client.conversations.replies({ channel: CHANNEL, ts: root });
    expect(all.messages?.map((m) => m.text)).toEqual(['root', 'reply']);
  });

  it('refuses what Slack refuses', async () => {
    const root = standIn.addPersonMessage(CHANNEL, null, { user: 'U0DANA0001', text: 'root' });
    expect(await refusal(client.conversations.history({ channel: '' }))).toBe('channel_not_found');
    expect(await refusal(client.conversations.history({ channel: 'C0ELSEWHERE' }))).toBe('not_in_channel');
    expect(await refusal(client.conversations.history({ channel: CHANNEL, oldest: 'yesterday' }))).toBe(
      'invalid_ts_oldest',
    );
    expect(await refusal(client.conversations.history({ channel: CHANNEL, latest: '1.2.3' }))).toBe(
      'invalid_ts_latest',
    );
    expect(await refusal(client.conversations.history({ channel: CHANNEL, limit: 1000 }))).toBe(
      'invalid_limit',
    );
    expect(await refusal(client.conversations.history({ channel: CHANNEL, cursor: 'not-a-cursor' }))).toBe(
      'invalid_cursor',
    );
    expect(await refusal(client.conversations.replies({ channel: CHANNEL, ts: '1764700999.000001' }))).toBe(
      'thread_not_found',
    );
    expect(await refusal(client.conversations.replies({ channel: CHANNEL, ts: root }))).toBe('ok');
  });

  it('finds a thread by channel and ts however its message came: posted, pushed by a test, deleted', async () => {
    const posted = await client.chat.postMessage({ channel: CHANNEL, text: 'root' });
    const pushed = '1764799999.000001';
    standIn.messages.push({
      ...standIn.messages[0],
      ts: pushed,
      text: 'pushed',
    } as (typeof standIn.messages)[0]);
    for (const root of [posted.ts as string, pushed])
      expect(await refusal(client.chat.postMessage({ channel: CHANNEL, thread_ts: root, text: 'in' }))).toBe(
        'ok',
      );
    expect(standIn.messageAt('C0OTHER001', pushed)).toBeUndefined();
    standIn.deleteMessage(CHANNEL, pushed);
    expect(standIn.messageAt(CHANNEL, pushed)).toBeUndefined();
    expect(await refusal(client.chat.postMessage({ channel: CHANNEL, thread_ts: pushed, text: 'in' }))).toBe(
      'thread_not_found',
    );
    expect(standIn.messageAt(CHANNEL, posted.ts)?.text).toBe('root');
  });
});
