import { webApi } from '@slack/bolt';
import { SlackWebApiStandIn } from '../../../support/stand-ins/slack-web-api-stand-in';

/**
 * P15: the stand-in's `agents.sessions.setStatus` refuses what Slack refuses and its native
 * Stop behaves as Slack's, through the real WebClient (`client.agents.sessions.setStatus`), so
 * the session tests prove something about Slack.
 */
describe('the Slack stand-in keeps agent sessions like Slack', () => {
  const CHANNEL = 'C0GENERAL1';
  const OTHER = 'C0OTHER001';
  const MIA = 'U0MIA00001';
  let standIn: SlackWebApiStandIn;
  let client: webApi.WebClient;
  let url: string;
  let thread: string;

  const open = async (enabled = true) => {
    standIn = new SlackWebApiStandIn({
      channels: [CHANNEL],
      agentSessions: { enabled },
      streaming: { enabled: true },
    });
    url = await standIn.listen();
    client = new webApi.WebClient(standIn.token, { slackApiUrl: url, retryConfig: { retries: 0 } });
    thread = standIn.addPersonMessage(CHANNEL, null, { user: MIA, text: 'explain' });
  };
  afterEach(() => standIn.close());

  const refusal = (call: Promise<unknown>) =>
    call.then(
      () => 'ok',
      (error: { data?: { error?: string } }) => error.data?.error,
    );
  const setStatus = (args: Record<string, unknown>) =>
    refusal(
      client.agents.sessions.setStatus({
        channel_id: CHANNEL,
        thread_ts: thread,
        status: 'processing',
        ...args,
      } as Parameters<typeof client.agents.sessions.setStatus>[0]),
    );

  it('P15: the token, the channel, the thread, the status and the initiator are checked; good calls are kept in order', async () => {
    await open();
    const stranger = new webApi.WebClient('xoxb-not-the-token', {
      slackApiUrl: url,
      retryConfig: { retries: 0 },
    });
    expect(
      await refusal(
        stranger.agents.sessions.setStatus({ channel_id: CHANNEL, thread_ts: thread, status: 'processing' }),
      ),
    ).toBe('invalid_auth');
    expect(await setStatus({ channel_id: '' })).toBe('invalid_arguments');
    expect(await setStatus({ channel_id: OTHER })).toBe('not_in_channel');
    expect(await setStatus({ status: 'thinking' })).toBe('invalid_arguments');
    expect(await setStatus({ thread_ts: undefined })).toBe('invalid_arguments');
    expect(await setStatus({ thread_ts: '1764700000.999999' })).toBe('thread_not_found');
    expect(await setStatus({ title: 'x'.repeat(201) })).toBe('invalid_arguments');
    expect(await setStatus({ initiator_user_id: 'mia' })).toBe('user_not_found');
    expect(standIn.agentSessions.sessions).toEqual([]);

    expect(await setStatus({ initiator_user_id: MIA })).toBe('ok');
    expect(await setStatus({ status: 'suspended', initiator_user_id: 'U0DANA0001' })).toBe('ok');
    expect(await setStatus({ status: 'closed' })).toBe('ok');
    // The initiator is the one the session was created with.
    expect(standIn.agentSessions.find(CHANNEL, thread)).toMatchObject({
      initiator: MIA,
      status: 'closed',
      statuses: ['processing', 'suspended', 'closed'],
    });
  });

  it('P15: an app without agent sessions is refused; customizing the agent needs chat:write.customize', async () => {
    await open(false);
    expect(await setStatus({})).toBe('feature_not_enabled');
    await standIn.close();
    standIn = new SlackWebApiStandIn({
      channels: [CHANNEL],
      agentSessions: { enabled: true },
      scopes: ['chat:write'],
    });
    url = await standIn.listen();
    client = new webApi.WebClient(standIn.token, { slackApiUrl: url, retryConfig: { retries: 0 } });
    thread = standIn.addPersonMessage(CHANNEL, null, { user: MIA, text: 'explain' });
    expect(await setStatus({ username: 'engineer' })).toBe('missing_scope');
    expect(await setStatus({})).toBe('ok');
  });

  it('P15: the native Stop is there only while the session is processing; it stops the thread’s streams and names them', async () => {
    await open();
    expect(() => standIn.agentSessions.pressStop(CHANNEL, thread, MIA)).toThrow(/no Stop to press/);
    await setStatus({});
    const started = await client.chat.startStream({
      channel: CHANNEL,
      thread_ts: thread,
      recipient_user_id: MIA,
      recipient_team_id: standIn.teamId,
      markdown_text: 'Looking',
    });
    const event = standIn.agentSessions.pressStop(CHANNEL, thread, MIA);
    expect(event).toMatchObject({
      type: 'agent_session_stopped',
      channel: CHANNEL,
      thread_ts: thread,
      user: MIA,
      streaming_message_ts: [started.ts],
    });
    expect(
      await refusal(client.chat.appendStream({ channel: CHANNEL, ts: started.ts ?? '', markdown_text: '…' })),
    ).toBe('message_not_in_streaming_state');
    // Slack leaves the status to the app.
    expect(standIn.agentSessions.find(CHANNEL, thread)?.status).toBe('processing');
    await setStatus({ status: 'suspended' });
    expect(() => standIn.agentSessions.pressStop(CHANNEL, thread, MIA)).toThrow(/suspended/);
  });
});
