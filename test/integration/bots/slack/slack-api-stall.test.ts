import { anthropicAgent } from '../../../support/anthropic-agent';
import { waitFor } from '../../../support/engine-harness';
import { CHANNEL, eventFrom } from '../../../support/slack-delivery';
import { openSlackHarness, type SlackHarness } from '../../../support/slack-harness';
import { AnthropicStandIn } from '../../../support/stand-ins/anthropic-stand-in';

const ANTHROPIC_KEY = 'sk-ant-api03-SLACK-API-STALL-41d9';
const REQUEST_TIMEOUT_MS = 400;

/**
 * P7: a Slack that takes each Web API call and never answers (a hung connection, a stuck proxy).
 * Each call gives up after the request timeout and the outbox tries it again, so once Slack
 * answers again the reply lands, once, with no failure notice: nothing waits on a socket forever.
 */
describe('P7: a Web API call Slack never answers is given up and tried again', () => {
  let h: SlackHarness;
  let anthropic: AnthropicStandIn;

  beforeEach(async () => {
    anthropic = await AnthropicStandIn.start({
      apiKey: ANTHROPIC_KEY,
      reply: () => ({ kind: 'stream', blocks: [{ type: 'text', chunks: ['answered after the stall'] }] }),
    });
    h = await openSlackHarness({
      ...anthropicAgent(anthropic, ANTHROPIC_KEY),
      requestTimeoutMs: REQUEST_TIMEOUT_MS,
      outboxBackoff: { baseMs: 50, maxMs: 200 },
    });
  });
  afterEach(async () => {
    await h?.close();
    await anthropic.close();
  });

  it('P7: calls stalled for several timeouts are retried; after, the mention is answered once', async () => {
    h.standIn.stall();
    const ts = h.standIn.addPersonMessage(CHANNEL, null);
    await h.deliver(eventFrom('message-channel', { ts, text: '@engineer are you there?' }));
    // Taken and never answered, more than once: each attempt was given up, then made again.
    await waitFor(async () => {
      const stalled = h.standIn.calls.filter((c) => c.error === 'stalled');
      return stalled.length >= 3 ? stalled : null;
    });
    expect(anthropic.requests.length).toBeGreaterThan(0);
    h.standIn.up();

    const replies = () =>
      h.standIn.inThread(CHANNEL, ts).filter((m) => m.botId !== '' && m.text === 'answered after the stall');
    await waitFor(
      async () => replies().length > 0 && (await h.runs()).every((r) => r.status === 'succeeded'),
    );
    expect(replies()).toHaveLength(1);
    expect(h.standIn.messages.filter((m) => /interrupted|failed|gave up/i.test(m.text))).toEqual([]);
  }, 60_000);
});
