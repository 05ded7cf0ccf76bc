import { createLogger } from '../../../../src/app/logger';
import { waitFor } from '../../../support/engine-harness';
import { replies, ScriptedRunner } from '../../../support/scripted-runner';
import { CHANNEL, eventFrom, fixture } from '../../../support/slack-delivery';
import { openSlackHarness, PEOPLE, type SlackHarness, STRANGER } from '../../../support/slack-harness';

const MENTION_TS = '1764700100.000100';

describe('Slack events through the real Bolt app, outbox and engine', () => {
  let h: SlackHarness;
  let runner: ScriptedRunner;

  beforeEach(async () => {
    runner = new ScriptedRunner({}, (request) => [{ type: 'final', text: `${request.agent.name} here` }]);
    h = await openSlackHarness({
      runner,
      ...(process.env.SLACK_TEST_DEBUG ? { logger: createLogger({ level: 'debug' }) } : {}),
    });
  });
  afterEach(() => h.close());

  const agentPosts = (username: string) =>
    h.standIn.messages.filter((m) => m.username === username && m.blocks === null);
  const settled = (count: number) =>
    waitFor(async () => {
      const runs = await h.runs();
      return runs.length === count && runs.every((r) => r.status === 'succeeded' || r.status === 'failed')
        ? runs
        : null;
    });

  it('P2, P9: a mention gets a threaded reply under the agent’s name, after its status card', async () => {
    h.standIn.messages.push({
      channel: CHANNEL,
      ts: MENTION_TS,
      threadTs: null,
      text: '(person)',
      blocks: null,
      username: null,
      iconUrl: null,
      botId: '',
      edits: 0,
    });
    const response = await h.deliver(fixture('app-mention'));
    expect(response.status).toBe(200);
    await settled(1);
    await waitFor(async () => agentPosts('engineer').length === 1);
    const [reply] = agentPosts('engineer');
    expect(reply).toMatchObject({ channel: CHANNEL, threadTs: MENTION_TS, text: 'engineer here' });
    const card = h.standIn.messages.find((m) => m.blocks !== null && m.username === 'engineer');
    expect(card?.threadTs).toBe(MENTION_TS);
    expect(JSON.stringify(card?.blocks)).toContain(':white_check_mark:');
    // The card sits above the reply.
    expect(h.standIn.messages.indexOf(card as never)).toBeLessThan(
      h.standIn.messages.indexOf(reply as never),
    );
    // P10: the bot's own post, echoed back by Slack, starts nothing.
    expect((await h.deliver(fixture('message-bot-own-post'))).status).toBe(200);
    expect(await h.runs()).toHaveLength(1);
  });

  it('P6: the same message delivered four times (retries 0–3, a restart between) and as `message` too → one run, one reply', async () => {
    h.standIn.addPersonMessage(CHANNEL, null);
    const mention = eventFrom('app-mention', { ts: h.standIn.messages[0]?.ts });
    const message = eventFrom('message-channel', { ts: h.standIn.messages[0]?.ts });
    expect((await h.deliver(mention, { retryNum: 0 })).status).toBe(200);
    expect((await h.deliver(message)).status).toBe(200);
    expect((await h.deliver(mention, { retryNum: 1 })).status).toBe(200);
    await h.restart();
    expect((await h.deliver(mention, { retryNum: 2 })).status).toBe(200);
    expect((await h.deliver(mention, { retryNum: 3 })).status).toBe(200);
    await settled(1);
    await waitFor(async () => agentPosts('engineer').length >= 1);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(agentPosts('engineer')).toHaveLength(1);
    expect(runner.requests).toHaveLength(1);
  });

  it('M8: two agents mentioned at once both answer in the thread', async () => {
    const ts = h.standIn.addPersonMessage(CHANNEL, null);
    await h.deliver(eventFrom('message-channel', { ts, text: '@engineer @qa look at the flaky test' }));
    await settled(2);
    await waitFor(async () => agentPosts('engineer').length === 1 && agentPosts('qa').length === 1);
    expect(agentPosts('qa')[0]?.threadTs).toBe(ts);
    expect(agentPosts('engineer')[0]?.threadTs).toBe(ts);
  });

  it('M3: a follow-up in the thread without a mention reaches the agent that answered', async () => {
    const ts = h.standIn.addPersonMessage(CHANNEL, null);
    await h.deliver(eventFrom('message-channel', { ts, text: '@engineer fix the login bug' }));
    await settled(1);
    const reply = h.standIn.addPersonMessage(CHANNEL, ts);
    await h.deliver(eventFrom('message-thread-reply', { ts: reply, thread_ts: ts, text: 'and add a test' }));
    await settled(2);
    await waitFor(async () => agentPosts('engineer').length === 2);
    expect(agentPosts('engineer').every((m) => m.threadTs === ts)).toBe(true);
    expect(runner.requests[1]?.prompt).toContain('and add a test');
  });

  it('P1: a direct message is a one-person space answered by the top-level agent; a stranger is told how to link', async () => {
    const agents = await h.read((tx) => tx.agents.list(h.local.workspace.id));
    const top = agents.find((a) => a.reportsToId === null);
    const ts = h.standIn.addPersonMessage('D0DIRECT01', null);
    await h.deliver(eventFrom('message-im', { ts }));
    await settled(1);
    await waitFor(async () =>
      h.standIn.messages.some((m) => m.channel === 'D0DIRECT01' && m.text === `${top?.name} here`),
    );
    const reply = h.standIn.messages.find((m) => m.text === `${top?.name} here`);
    expect(reply).toMatchObject({ threadTs: ts, username: top?.name });
    const space = await h.read((tx) => tx.spaces.findByName(h.local.workspace.id, 'dm-dana'));
    expect(space?.dedicated).toBe(true);

    const other = h.standIn.addPersonMessage('D0DIRECT02', null);
    await h.deliver(
      eventFrom('message-im', { ts: other, channel: 'D0DIRECT02', user: STRANGER }, 'Ev0DIRECT002'),
    );
    await waitFor(async () =>
      h.standIn.messages.some(
        (m) => m.channel === 'D0DIRECT02' && m.threadTs === other && m.text.includes('link-account'),
      ),
    );
    expect(await h.runs()).toHaveLength(1);
  });

  it('P8: an unknown person is told in the thread how to link; a viewer that their role cannot start work', async () => {
    const ts = h.standIn.addPersonMessage(CHANNEL, null);
    await h.deliver(eventFrom('message-channel', { ts, user: STRANGER, text: '@engineer hello' }));
    await waitFor(async () =>
      h.standIn.messages.some((m) => m.threadTs === ts && m.text.includes('link-account')),
    );
    const ts2 = h.standIn.addPersonMessage(CHANNEL, null);
    await h.deliver(
      eventFrom('message-channel', { ts: ts2, user: PEOPLE.vic.userId, text: '@engineer hello' }),
    );
    await waitFor(async () =>
      h.standIn.messages.some((m) => m.threadTs === ts2 && m.text.includes('viewer')),
    );
    expect(await h.runs()).toHaveLength(0);
  });
});

describe('Slack request verification', () => {
  let h: SlackHarness;
  beforeEach(async () => {
    h = await openSlackHarness({ runner: new ScriptedRunner({}, replies('hi')) });
  });
  afterEach(() => h.close());

  // T4: what an ack guarantees is stored: the event's inbox row.
  const storedEvents = () =>
    h.store.transaction(async (tx) => {
      const rows = await (tx as unknown as { query: (sql: string) => Promise<{ n: string }[]> }).query(
        'SELECT count(*)::text AS n FROM inbound_inbox',
      );
      return Number(rows[0]?.n);
    });

  it('a forged signature, a stale and a future timestamp are refused with 401 and nothing is stored', async () => {
    const payload = fixture('app-mention');
    const now = Math.floor(Date.now() / 1000);
    expect((await h.deliver(payload, { signature: `v0=${'0'.repeat(64)}` })).status).toBe(401);
    expect((await h.deliver(payload, { secret: 'not-the-secret' })).status).toBe(401);
    expect((await h.deliver(payload, { timestamp: now - 6 * 60 })).status).toBe(401);
    expect((await h.deliver(payload, { timestamp: now + 6 * 60 })).status).toBe(401);
    expect(await storedEvents()).toBe(0);
    expect(await h.runs()).toHaveLength(0);
    // The endpoint is live: the same payload, signed now, is taken.
    expect((await h.deliver(payload)).status).toBe(200);
    expect(await storedEvents()).toBe(1);
  });

  it('answers Slack’s url_verification challenge', async () => {
    const response = await h.deliver({ type: 'url_verification', token: 'x', challenge: 'abc123' });
    expect(response.status).toBe(200);
    expect(response.body).toContain('abc123');
  });
});

describe('P6: a delivery that failed is processed on Slack’s retry', () => {
  let h: SlackHarness;
  beforeEach(async () => {
    h = await openSlackHarness();
  });
  afterEach(() => h.close());

  it('the ack waits for the core: a failure answers 500 so Slack retries, and the retry is handed over', async () => {
    let failures = 1;
    h.recording.behaviour.receive = () => {
      if (failures-- > 0) throw new Error('database unavailable');
      return { kind: 'accepted', conversationId: 'c-1', runIds: [] };
    };
    const mention = fixture('app-mention');
    expect((await h.deliver(mention)).status).toBe(500);
    expect((await h.deliver(mention, { retryNum: 1 })).status).toBe(200);
    expect(h.recording.received).toHaveLength(2);
    expect(h.recording.received[1]?.eventId).toBe(h.recording.received[0]?.eventId);
  });
});
