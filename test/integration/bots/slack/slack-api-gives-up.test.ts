import { anthropicAgent } from '../../../support/anthropic-agent';
import { waitFor } from '../../../support/engine-harness';
import { CHANNEL, eventFrom } from '../../../support/slack-delivery';
import { openSlackHarness, type SlackHarness } from '../../../support/slack-harness';
import { AnthropicStandIn } from '../../../support/stand-ins/anthropic-stand-in';

const ANTHROPIC_KEY = 'sk-ant-api03-SLACK-GIVES-UP-41d9';
/** The outbox gives a call this long here (`SUMMON_OUTBOX_GIVE_UP_HOURS` in production). */
const GIVE_UP_MS = 4_000;
/** Longer than the turn's card is given, shorter than it and the failure's notice after it. */
const OUTAGE_MS = 6_500;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Message = { role: string; content: unknown };

/** What the newest prompt asks (after the thread's recent conversation). */
function asked(body: unknown): string {
  const messages = (body as { messages?: Message[] }).messages ?? [];
  const content = messages[messages.length - 1]?.content;
  // A14: the prompt is sent as text blocks
  const text = Array.isArray(content)
    ? (content as { type: string; text?: string }[])
        .flatMap((block) => (block.type === 'text' ? [block.text ?? ''] : []))
        .join('\n')
    : typeof content === 'string'
      ? content
      : '';
  return (text.split('## Prompt').at(-1) ?? '').trim();
}

/**
 * P7, P16: when Slack stays away longer than the outbox waits, the turn whose card could not be
 * posted fails with the reason on its run and in its thread (posted once Slack answers again),
 * and a message sent meanwhile in that thread starts a turn of its own rather than vanishing.
 */
describe('P7, P16: a platform call given up fails its turn, says why, and loses no message', () => {
  let h: SlackHarness;
  let anthropic: AnthropicStandIn;

  beforeEach(async () => {
    anthropic = await AnthropicStandIn.start({
      apiKey: ANTHROPIC_KEY,
      reply: (body) => ({ kind: 'stream', blocks: [{ type: 'text', chunks: [`answered: ${asked(body)}`] }] }),
    });
    h = await openSlackHarness({
      ...anthropicAgent(anthropic, ANTHROPIC_KEY),
      outboxBackoff: { baseMs: 100, maxMs: 500, giveUpMs: GIVE_UP_MS },
    });
  });
  afterEach(async () => {
    await h?.close();
    await anthropic.close();
  });

  it('P7, P16: the turn fails with the reason, the thread is told after the outage, the next message is answered', async () => {
    h.standIn.down(503);
    const root = h.standIn.addPersonMessage(CHANNEL, null);
    await h.deliver(eventFrom('message-channel', { ts: root, text: '@engineer first question' }));
    await waitFor(async () => (await h.runs()).some((r) => r.status === 'running'), 10_000);
    const later = h.standIn.addPersonMessage(CHANNEL, root);
    await h.deliver(
      eventFrom('message-thread-reply', { ts: later, thread_ts: root, text: 'second question' }),
    );
    await pause(OUTAGE_MS);
    h.standIn.up();

    const bots = () => h.standIn.inThread(CHANNEL, root).filter((m) => m.botId !== '');
    await waitFor(async () => bots().some((m) => m.text === 'answered: second question'), 30_000);
    await waitFor(
      async () => (await h.runs()).every((r) => r.status !== 'running' && r.status !== 'queued'),
      30_000,
    );
    const runs = await h.runs();
    expect(runs.map((r) => r.status).sort()).toEqual(['failed', 'succeeded']);
    const failed = runs.find((r) => r.status === 'failed');
    expect(failed?.error).toContain('Slack answered HTTP 503');
    const texts = bots().map((m) => m.text);
    expect(texts.filter((t) => t.startsWith("engineer's turn failed"))).toEqual([
      `engineer's turn failed: ${failed?.error}`,
    ]);
    expect(texts.filter((t) => t.startsWith('answered'))).toEqual(['answered: second question']);
  }, 60_000);
});
