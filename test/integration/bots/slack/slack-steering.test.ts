import { ACTIONS } from '../../../../src/bots/slack/outbound/slack-cards';
import { anthropicAgent, COMMIT_COMMAND, COMMITS_ASK_FIRST } from '../../../support/anthropic-agent';
import { waitFor } from '../../../support/engine-harness';
import { buttonValue, clickPayload } from '../../../support/slack-clicks';
import { CHANNEL, eventFrom } from '../../../support/slack-delivery';
import { openSlackHarness, PEOPLE, type SlackHarness } from '../../../support/slack-harness';
import { AnthropicStandIn } from '../../../support/stand-ins/anthropic-stand-in';

const ANTHROPIC_KEY = 'sk-ant-api03-SLACK-STEERING-5e1d';
const STEER = 'actually, use the staging database';

type Message = { role: string; content: unknown };
type Block = { type: string; text?: string };

describe('P16: a reply in a Slack thread steers the running turn (real Bolt, the Slack stand-in)', () => {
  let h: SlackHarness;
  let anthropic: AnthropicStandIn;

  beforeEach(async () => {
    anthropic = await AnthropicStandIn.start({ apiKey: ANTHROPIC_KEY });
    h = await openSlackHarness(anthropicAgent(anthropic, ANTHROPIC_KEY));
    // G1: the turn waits on an approval for its commit, between two model calls.
    await h.read((tx) => tx.guardrails.upsert(h.local.workspace.id, COMMITS_ASK_FIRST));
  });
  afterEach(async () => {
    await h?.close();
    await anthropic.close();
  });

  it('P16, N10: the reply joins the next model request after the tool result, no second turn, the card shows it', async () => {
    anthropic.script(
      { kind: 'stream', blocks: [{ type: 'tool_use', name: 'bash', input: { command: COMMIT_COMMAND } }] },
      { kind: 'stream', blocks: [{ type: 'text', chunks: ['Committed, and noted: staging.'] }] },
    );
    const ts = h.standIn.addPersonMessage(CHANNEL, null);
    await h.deliver(eventFrom('message-channel', { ts, text: '@engineer commit the fix' }));
    const approvalCard = () =>
      h.standIn.inThread(CHANNEL, ts).find((m) => JSON.stringify(m.blocks ?? []).includes(':lock:'));
    await waitFor(async () => buttonValue(approvalCard(), ACTIONS.approve) !== null);

    // A reply in the thread, naming nobody, while the turn waits on its approval.
    const reply = h.standIn.addPersonMessage(CHANNEL, ts);
    await h.deliver(eventFrom('message-thread-reply', { ts: reply, thread_ts: ts, text: STEER }));
    await waitFor(async () => {
      const rows = await h.store.transaction((tx) => tx.query('SELECT state FROM run_steering'));
      return rows.length === 1 ? rows : null;
    });
    expect(await h.runs()).toHaveLength(1);

    const pending = structuredClone(approvalCard());
    if (pending === undefined) throw new Error('no approval card');
    expect((await h.deliver(clickPayload(pending, PEOPLE.dana.userId, ACTIONS.approve))).status).toBe(200);
    await waitFor(async () =>
      h.standIn
        .inThread(CHANNEL, ts)
        .some((m) => m.username === 'engineer' && m.text === 'Committed, and noted: staging.'),
    );
    await waitFor(async () => (await h.runs()).map((r) => r.status).join() === 'succeeded');

    // The second model request: the commit's result, then the reply, in the same user message.
    expect(anthropic.requests).toHaveLength(2);
    const messages = (anthropic.requests[1]?.body as { messages?: Message[] } | undefined)?.messages ?? [];
    const last = messages[messages.length - 1];
    const blocks = (last?.content ?? []) as Block[];
    expect(blocks.map((b) => b.type)).toEqual(['tool_result', 'text']);
    expect(blocks[1]?.text).toBe(`dana (person) wrote in the thread while you were working:\n\n${STEER}`);
    // N10: one status card, and the reply is a row of it.
    const cards = h.standIn
      .inThread(CHANNEL, ts)
      .filter((m) => m.username === 'engineer' && JSON.stringify(m.blocks ?? []).includes(STEER));
    expect(cards).toHaveLength(1);
    expect(JSON.stringify(cards[0]?.blocks)).toContain(`↪ @dana: ${STEER}`);
  });
});
