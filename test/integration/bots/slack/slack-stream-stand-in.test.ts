import { webApi } from '@slack/bolt';
import { SlackWebApiStandIn } from '../../../support/stand-ins/slack-web-api-stand-in';

/**
 * P14: the stand-in's `chat.startStream` / `appendStream` / `stopStream` refuse what Slack
 * refuses, through the real WebClient (its own `chat.*Stream` methods), so the streaming tests
 * prove something about Slack.
 */
describe('the Slack stand-in streams like Slack', () => {
  const CHANNEL = 'C0GENERAL1';
  const MIA = 'U0MIA00001';
  let standIn: SlackWebApiStandIn;
  let client: webApi.WebClient;
  let thread: string;

  const open = async (maxAgeMs = 60_000) => {
    standIn = new SlackWebApiStandIn({ channels: [CHANNEL], streaming: { enabled: true, maxAgeMs } });
    const url = await standIn.listen();
    client = new webApi.WebClient(standIn.token, { slackApiUrl: url, retryConfig: { retries: 0 } });
    thread = standIn.addPersonMessage(CHANNEL, null, { user: MIA, text: 'explain' });
  };
  afterEach(() => standIn.close());

  const refusal = (call: Promise<unknown>) =>
    call.then(
      () => 'ok',
      (error: { data?: { error?: string } }) => error.data?.error,
    );
  const start = (extra: Record<string, unknown> = {}) =>
    client.chat.startStream({
      channel: CHANNEL,
      thread_ts: thread,
      recipient_user_id: MIA,
      recipient_team_id: standIn.teamId,
      ...extra,
    });

  it('a channel stream needs its recipient and team; the text of start, appends and stop is the message, tasks replaced by id', async () => {
    await open();
    expect(await refusal(client.chat.startStream({ channel: CHANNEL, thread_ts: thread }))).toBe(
      'missing_recipient_user_id',
    );
    expect(
      await refusal(client.chat.startStream({ channel: CHANNEL, thread_ts: thread, recipient_user_id: MIA })),
    ).toBe('missing_recipient_team_id');
    expect(await refusal(start({ thread_ts: '1.000009' }))).toBe('thread_not_found');
    const started = await start({ username: 'engineer', markdown_text: 'Hel' });
    const ts = started.ts ?? '';
    await client.chat.appendStream({ channel: CHANNEL, ts, markdown_text: 'lo' });
    await client.chat.appendStream({
      channel: CHANNEL,
      ts,
      chunks: [{ type: 'task_update', id: 'c1', title: 'bash: ls', status: 'in_progress' }],
    });
    await client.chat.stopStream({
      channel: CHANNEL,
      ts,
      chunks: [
        { type: 'task_update', id: 'c1', title: 'bash: ls', status: 'complete', details: 'exit 0' },
        { type: 'markdown_text', text: '.' },
      ],
    });
    const [message] = standIn.streamedInThread(CHANNEL, thread);
    expect(message).toMatchObject({
      text: 'Hello.',
      username: 'engineer',
      stream: {
        state: 'stopped',
        recipient: MIA,
        tasks: [{ id: 'c1', title: 'bash: ls', status: 'complete', details: 'exit 0' }],
      },
    });
    // Stopped: it takes nothing more.
    expect(await refusal(client.chat.appendStream({ channel: CHANNEL, ts, markdown_text: '!' }))).toBe(
      'message_not_in_streaming_state',
    );
  });

  it('refuses bad chunks, text over 12,000 characters, an append with nothing, and streams of others', async () => {
    await open();
    expect(
      await refusal(
        start({ chunks: [{ type: 'task_update', id: 'c1', title: 'x', status: 'done' }] as never }),
      ),
    ).toBe('invalid_chunks');
    expect(await refusal(start({ markdown_text: 'x'.repeat(12_001) }))).toBe('msg_too_long');
    const ts = (await start({ markdown_text: 'Hi' })).ts ?? '';
    expect(await refusal(client.chat.appendStream({ channel: CHANNEL, ts }))).toBe('no_text');
    // A person's message is not this app's stream.
    expect(
      await refusal(client.chat.appendStream({ channel: CHANNEL, ts: thread, markdown_text: 'x' })),
    ).toBe('message_not_owned_by_app');
    expect(
      await refusal(client.chat.appendStream({ channel: CHANNEL, ts: '1.000009', markdown_text: 'x' })),
    ).toBe('message_not_found');
  });

  it('a stream past its age limit takes nothing more (message_not_in_streaming_state)', async () => {
    await open(50);
    const ts = (await start({ markdown_text: 'Hi' })).ts ?? '';
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(await refusal(client.chat.appendStream({ channel: CHANNEL, ts, markdown_text: ' there' }))).toBe(
      'message_not_in_streaming_state',
    );
    expect(await refusal(client.chat.stopStream({ channel: CHANNEL, ts }))).toBe(
      'message_not_in_streaming_state',
    );
    expect(standIn.streamedInThread(CHANNEL, thread).map((m) => m.text)).toEqual(['Hi']);
  });

  it('an app without streaming is refused at the start', async () => {
    standIn = new SlackWebApiStandIn({ channels: [CHANNEL] });
    const url = await standIn.listen();
    client = new webApi.WebClient(standIn.token, { slackApiUrl: url, retryConfig: { retries: 0 } });
    thread = standIn.addPersonMessage(CHANNEL, null, { user: MIA, text: 'explain' });
    expect(await refusal(start({ markdown_text: 'Hi' }))).toBe('feature_not_enabled');
  });
});
