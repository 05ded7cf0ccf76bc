import { ACTIONS } from '../../../../src/bots/slack/outbound/slack-cards';
import type { RunnerEvent } from '../../../../src/core/ports/runner';
import { waitFor } from '../../../support/engine-harness';
import { type Script, ScriptedRunner } from '../../../support/scripted-runner';
import { CHANNEL, eventFrom } from '../../../support/slack-delivery';
import {
  openSlackHarness,
  PEOPLE,
  type SlackHarness,
  type SlackHarnessOptions,
} from '../../../support/slack-harness';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Writes `words` one delta at a time, `gapMs` apart, then ends with all of them. */
function slowly(words: string[], gapMs: number): Script {
  return async function* () {
    for (const word of words) {
      yield { type: 'text', delta: word } satisfies RunnerEvent;
      await pause(gapMs);
    }
    yield { type: 'final', text: words.join('') };
  };
}

describe('P14: a Slack reply streams under the agent’s name', () => {
  let h: SlackHarness;
  let events = 0;
  afterEach(() => h?.close());

  const open = async (script: Script, options: Partial<SlackHarnessOptions> = {}) => {
    h = await openSlackHarness({
      runner: new ScriptedRunner({ engineer: script }),
      standIn: { streaming: { enabled: true, maxAgeMs: 60_000 } },
      stream: { rolloverAfterMs: 60_000 },
      ...options,
    });
  };
  /** mia asks engineer in a new thread; resolves once the turn has ended. */
  const ask = async () => {
    const ts = h.standIn.addPersonMessage(CHANNEL, null);
    events += 1;
    await h.deliver(
      eventFrom(
        'message-channel',
        { ts, user: PEOPLE.mia.userId, text: '@engineer explain' },
        `Ev0STREAM${events}`,
      ),
    );
    await waitFor(
      async () => (await h.runs()).some((r) => r.status === 'succeeded' || r.status === 'failed'),
      15_000,
    );
    await h.front.deliverer.drain();
    return ts;
  };
  const cardOf = (ts: string) =>
    h.standIn.inThread(CHANNEL, ts).find((m) => (m.blocks ?? []).length > 0 && m.ts !== ts);

  it('P14, P7: a turn that outlives the stream age limit streams across several messages, every character once and in order', async () => {
    const words = Array.from({ length: 40 }, (_, i) => `word${i} `);
    // Slack's limit is far off: Summon closes each message after 100 ms, before it.
    await open(slowly(words, 12), { stream: { rolloverAfterMs: 100 } });
    const ts = await ask();
    const streamed = h.standIn.streamedInThread(CHANNEL, ts);
    expect(streamed.length).toBeGreaterThanOrEqual(2);
    expect(streamed.map((m) => m.text).join('')).toBe(words.join(''));
    // Under the agent's name, to the person who asked, and every message closed.
    for (const message of streamed) {
      expect(message).toMatchObject({
        username: 'engineer',
        stream: { state: 'stopped', recipient: PEOPLE.mia.userId },
      });
    }
    // No message was stopped after Slack's own limit had passed, and nothing was posted besides.
    expect(h.standIn.calls.filter((c) => c.method.endsWith('Stream') && !c.ok)).toEqual([]);
    expect(
      h.standIn.okCalls('chat.postMessage').filter((c) => String(c.params.text).includes('word')),
    ).toEqual([]);
    // The stored reply is the whole reply, its ref the first streamed message.
    const [run] = await h.runs();
    const reply = await h.read((tx) => tx.messages.findById(run?.replyMessageId ?? ''));
    expect(reply).toMatchObject({ text: words.join(''), platformMessageRef: streamed[0]?.ts });
  });

  it('P14: a message Slack closed at its age limit takes nothing more: the refused text goes into the next message, once', async () => {
    // Summon would roll over only after a minute; Slack's stand-in closes streams after 150 ms.
    const words = Array.from({ length: 20 }, (_, i) => `w${i} `);
    await open(slowly(words, 25), { standIn: { streaming: { enabled: true, maxAgeMs: 150 } } });
    const ts = await ask();
    const streamed = h.standIn.streamedInThread(CHANNEL, ts);
    expect(streamed.length).toBeGreaterThanOrEqual(2);
    expect(h.standIn.calls.some((c) => c.error === 'message_not_in_streaming_state')).toBe(true);
    expect(streamed.map((m) => m.text).join('')).toBe(words.join(''));
  });

  it('P14, P9: tool calls are task chunks of the stream, not rows of the card; the card keeps its headline', async () => {
    await open(async function* () {
      yield { type: 'text', delta: 'Checking.' };
      yield { type: 'tool_start', callId: 'c1', tool: 'bash', summary: 'npm test' };
      await pause(30);
      yield { type: 'tool_end', callId: 'c1', ok: true, summary: 'exit 0' };
      yield { type: 'text', delta: 'All green.' };
      yield { type: 'final', text: 'All green.' };
    });
    const ts = await ask();
    const [message, ...more] = h.standIn.streamedInThread(CHANNEL, ts);
    expect(more).toEqual([]);
    expect(message?.text).toBe('Checking.\n\nAll green.');
    expect(message?.stream?.tasks).toEqual([
      { id: 'c1', title: 'bash: npm test', status: 'complete', details: 'exit 0' },
    ]);
    const card = JSON.stringify(cardOf(ts)?.blocks);
    expect(card).toContain('Done');
    expect(card).not.toContain('npm test');
    expect(card).not.toContain(ACTIONS.stop);
  });

  it('P14, P9: where Slack refuses to stream, the card shows the calls and the reply is posted whole', async () => {
    await open(
      async function* () {
        yield { type: 'tool_start', callId: 'c1', tool: 'bash', summary: 'npm test' };
        yield { type: 'tool_end', callId: 'c1', ok: true, summary: 'exit 0' };
        yield { type: 'text', delta: 'All ' };
        await pause(30);
        yield { type: 'text', delta: 'green.' };
        yield { type: 'final', text: 'All green.' };
      },
      { standIn: { streaming: { enabled: false, refusal: 'feature_not_enabled' } } },
    );
    const ts = await ask();
    expect(h.standIn.calls.filter((c) => c.method === 'chat.startStream').map((c) => c.error)).toEqual([
      'feature_not_enabled',
    ]);
    expect(h.standIn.streamedInThread(CHANNEL, ts)).toEqual([]);
    expect(JSON.stringify(cardOf(ts)?.blocks)).toContain('exit 0');
    const replies = h.standIn.inThread(CHANNEL, ts).filter((m) => m.text === 'All green.');
    expect(replies).toMatchObject([{ username: 'engineer', blocks: null }]);
  });

  it('P14, P7: a streamed reply past the part limit goes on in the next message, a fence closed and opened again', async () => {
    const code = Array.from({ length: 30 }, (_, i) => `const value${i} = ${i};\n`).join('');
    const reply = `Here it is:\n\n\`\`\`ts\n${code}\`\`\`\n\nThat is all.\n`;
    const lines = reply.match(/[^\n]*\n/g) ?? [];
    await open(
      async function* () {
        for (const line of lines) {
          yield { type: 'text', delta: line };
          await pause(2);
        }
        yield { type: 'final', text: reply };
      },
      { replyPartLimit: 200 },
    );
    const ts = await ask();
    const texts = h.standIn.streamedInThread(CHANNEL, ts).map((m) => m.text);
    expect(texts.length).toBeGreaterThanOrEqual(3);
    for (const text of texts) {
      expect(text.length).toBeLessThanOrEqual(200);
      // Every message renders its code as code: its fences are balanced.
      expect((text.match(/^```/gm) ?? []).length % 2).toBe(0);
    }
    // Without the fence lines added at the cuts, the messages are the reply, in order.
    let joined = texts[0] ?? '';
    for (const next of texts.slice(1)) {
      if (joined.endsWith('```') && next.startsWith('```ts\n'))
        joined = joined.slice(0, -3) + next.slice('```ts\n'.length);
      else joined += next;
    }
    expect(joined).toBe(reply);
  });
});
