import { type DiscordHarness, openDiscordHarness } from '../../../support/discord-harness';
import { type Script, ScriptedRunner } from '../../../support/scripted-runner';
import type { RecordedCall, StoredMessage } from '../../../support/stand-ins/discord/discord-stand-in';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Writes `deltas` one at a time, `gapMs` apart, then ends with `final` (default: all of them). */
function slowly(deltas: string[], gapMs: number, final = deltas.join('')): Script {
  return async function* () {
    for (const delta of deltas) {
      yield { type: 'text', delta };
      await pause(gapMs);
    }
    yield { type: 'final', text: final };
  };
}

describe('P14: a Discord reply is edited in place as it is written', () => {
  let h: DiscordHarness;
  afterEach(async () => {
    await h?.close();
    expect(h.standIn.refusals).toEqual([]);
  });

  const isWebhook = (c: RecordedCall, method: string) => c.method === method && c.path.includes('/webhooks/');
  const replyIn = (asked: StoredMessage) => h.thread(asked).filter((m) => m.embeds.length === 0);

  it('P14: the reply is posted with its first words, edited as it grows, and ends showing the exact reply', async () => {
    const deltas = Array.from({ length: 12 }, (_, i) => `part ${i} of the answer. `);
    h = await openDiscordHarness({ runner: new ScriptedRunner({ engineer: slowly(deltas, 30) }) });
    const asked = h.standIn.say(h.people.mo, h.channel, '@engineer explain');
    await h.settled(1);
    await h.frontEnd.deliverer.drain();
    const [reply, ...more] = replyIn(asked);
    expect(more).toEqual([]);
    expect(reply).toMatchObject({ content: deltas.join(''), author: { username: 'engineer' } });
    // Posted before the end (with less than the whole reply), then edited: more than once.
    const posts = h.standIn.calls.filter((c) => isWebhook(c, 'POST') && !c.path.endsWith('/webhooks'));
    const firstPost = posts.find((c) => JSON.stringify(c.body).includes('part 0'));
    expect(JSON.stringify(firstPost?.body)).not.toContain('part 11');
    const edits = h.standIn.calls.filter(
      (c) => isWebhook(c, 'PATCH') && c.path.endsWith(`/messages/${reply?.id}`),
    );
    expect(edits.length).toBeGreaterThanOrEqual(2);
    const [run] = await h.runs();
    const stored = await h.inAcme((tx) => tx.messages.findById(run?.replyMessageId ?? ''));
    expect(stored).toMatchObject({ text: deltas.join(''), platformMessageRef: reply?.id });
  });

  it('P14, P7: a streamed reply past 2,000 characters goes on in a new message, a fence closed and opened again, nothing lost', async () => {
    const code = Array.from({ length: 120 }, (_, i) => `const value${i} = ${i};`).join('\n');
    const replyText = `Here:\n\n\`\`\`ts\n${code}\n\`\`\`\n\nDone.`;
    const lines = replyText.split(/(?<=\n)/);
    h = await openDiscordHarness({ runner: new ScriptedRunner({ engineer: slowly(lines, 2) }) });
    const asked = h.standIn.say(h.people.mo, h.channel, '@engineer show me');
    await h.settled(1);
    await h.frontEnd.deliverer.drain();
    const parts = replyIn(asked).map((m) => m.content);
    expect(parts.length).toBeGreaterThanOrEqual(2);
    for (const part of parts) {
      expect(part.length).toBeLessThanOrEqual(2000);
      expect((part.match(/^```/gm) ?? []).length % 2).toBe(0);
    }
    let joined = parts[0] ?? '';
    for (const next of parts.slice(1)) {
      joined =
        joined.endsWith('\n```') && next.startsWith('```ts\n')
          ? `${joined.slice(0, -4)}\n${next.slice(6)}`
          : `${joined}\n${next}`;
    }
    expect(joined).toBe(replyText);
  });

  it('P14: the words written between tool calls show while the turn works; the message ends as the exact reply', async () => {
    h = await openDiscordHarness({
      runner: new ScriptedRunner({
        engineer: async function* () {
          yield { type: 'text', delta: 'Let me check.' };
          await pause(60);
          yield { type: 'tool_start', callId: 'c1', tool: 'bash', summary: 'npm test' };
          yield { type: 'tool_end', callId: 'c1', ok: true, summary: 'exit 0' };
          yield { type: 'text', delta: 'All green.' };
          yield { type: 'final', text: 'All green.' };
        },
      }),
    });
    const asked = h.standIn.say(h.people.mo, h.channel, '@engineer check');
    await h.settled(1);
    await h.frontEnd.deliverer.drain();
    expect(replyIn(asked).map((m) => m.content)).toEqual(['All green.']);
    // It was posted with the words before the tool call.
    const posted = h.standIn.calls.find(
      (c) => c.method === 'POST' && JSON.stringify(c.body).includes('Let me check.'),
    );
    expect(posted).toBeDefined();
  });
});
