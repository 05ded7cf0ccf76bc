import { anthropicAgent } from '../../../support/anthropic-agent';
import { waitFor } from '../../../support/engine-harness';
import { CHANNEL, eventFrom } from '../../../support/slack-delivery';
import { openSlackHarness, type SlackHarness } from '../../../support/slack-harness';
import { AnthropicStandIn } from '../../../support/stand-ins/anthropic-stand-in';

const ANTHROPIC_KEY = 'sk-ant-api03-SLACK-API-OUTAGE-7c2a';
/** Longer than the outbox gave a call before it waited out outages (about a minute). */
const OUTAGE_MS = Number(process.env.SUMMON_TEST_SLACK_OUTAGE_MS ?? 180_000);
const TEST_TIMEOUT_MS = OUTAGE_MS + 240_000;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const MARKER = /\bq\d+\b/g;

type Message = { role: string; content: unknown };

/** The markers (`q1`, `q2`…) of the newest user message: what this model call answers. */
function askedIn(body: unknown): string[] {
  const messages = (body as { messages?: Message[] }).messages ?? [];
  const last = messages[messages.length - 1];
  // A new turn's prompt follows the thread's recent conversation; steering comes as text blocks.
  // (A14: the prompt is a text block; steering joins the tool results as text blocks.)
  const text =
    typeof last?.content === 'string'
      ? (last.content.split('## Prompt').at(-1) ?? '')
      : (((last?.content ?? []) as { type: string; text?: string }[])
          .flatMap((block) => (block.type === 'text' ? [block.text ?? ''] : []))
          .join('\n')
          .split('## Prompt')
          .at(-1) ?? '');
  return [...new Set(text.match(MARKER) ?? [])];
}

/**
 * P7, T2, P16: Slack's Web API away for minutes (503s, or connections refused). Mentions sent
 * before and during it are each answered once it is back, in order per thread: the outbox
 * retries for hours rather than a minute, so no turn fails on its card and no steering message
 * goes down with a failed turn; and no turn waits for its card to start.
 */
describe('P7, T2, P16: outgoing Slack calls outlast an outage of the Web API', () => {
  let h: SlackHarness;
  let anthropic: AnthropicStandIn;

  beforeEach(async () => {
    anthropic = await AnthropicStandIn.start({
      apiKey: ANTHROPIC_KEY,
      reply: (body) => ({
        kind: 'stream',
        blocks: [{ type: 'text', chunks: [`answered ${askedIn(body).join(' ')}`] }],
      }),
    });
    h = await openSlackHarness({
      ...anthropicAgent(anthropic, ANTHROPIC_KEY),
      outboxBackoff: { baseMs: 200, maxMs: 2_000 },
    });
  });
  afterEach(async () => {
    await h?.close();
    await anthropic.close();
  });

  const mention = async (text: string) => {
    const ts = h.standIn.addPersonMessage(CHANNEL, null);
    await h.deliver(eventFrom('message-channel', { ts, text: `@engineer ${text}` }));
    return ts;
  };
  const replyIn = async (thread: string, text: string) => {
    const ts = h.standIn.addPersonMessage(CHANNEL, thread);
    await h.deliver(eventFrom('message-thread-reply', { ts, thread_ts: thread, text }));
  };
  /** The agent's replies in a thread, oldest first (not its status cards). */
  const answers = (thread: string) =>
    h.standIn
      .inThread(CHANNEL, thread)
      .filter((m) => m.botId !== '' && m.text.startsWith('answered'))
      .map((m) => m.text);
  const notices = () =>
    h.standIn.messages.filter((m) => m.botId !== '' && /interrupted|failed|gave up/i.test(m.text));

  async function sendThroughOutage(outage: { begin(): Promise<void>; end(): Promise<void> }) {
    const first = await mention('q1');
    await outage.begin();
    const during = [await mention('q2'), await mention('q3')];
    await replyIn(first, 'and q4');
    await replyIn(during[0] ?? '', 'also q5');
    await pause(OUTAGE_MS);
    // P7: a turn does not wait for its card: the model was asked during the outage.
    const askedDuring = anthropic.requests.flatMap((r) => askedIn(r.body));
    expect(askedDuring).toEqual(expect.arrayContaining(['q1', 'q2', 'q3']));
    await outage.end();

    const threads = { [first]: ['q1', 'q4'], [during[0] ?? '']: ['q2', 'q5'], [during[1] ?? '']: ['q3'] };
    const answered = () =>
      Object.keys(threads).flatMap((t) => answers(t).flatMap((a) => a.match(MARKER) ?? []));
    await waitFor(async () => answered().length >= 5, 120_000);
    await waitFor(async () => (await h.runs()).every((r) => r.status === 'succeeded'), 60_000);
    // Every mention answered exactly once, in its own thread, in the order it was sent.
    for (const [thread, markers] of Object.entries(threads)) {
      const inThread = answers(thread).flatMap((a) => a.match(MARKER) ?? []);
      expect(inThread).toEqual(markers);
    }
    expect(notices()).toEqual([]);
  }

  it(
    'P7, P16: 503s for minutes: every mention is answered once after, in order per thread',
    async () => {
      await sendThroughOutage({
        begin: async () => h.standIn.down(503),
        end: async () => h.standIn.up(),
      });
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'P7, P16: connections refused for minutes: every mention is answered once after, in order per thread',
    async () => {
      let port = 0;
      await sendThroughOutage({
        begin: async () => {
          port = await h.standIn.refuseConnections();
        },
        end: () => h.standIn.reopen(port),
      });
    },
    TEST_TIMEOUT_MS,
  );
});
