import { decodeSlackThreadId, encodeSlackThreadId } from '../../../../src/bots/slack/slack-thread-id';
import { waitFor } from '../../../support/engine-harness';
import { describePlatformContract, type SeenMessage } from '../../../support/platform-contract';
import { clickPayload } from '../../../support/slack-clicks';
import { CHANNEL, eventFrom, fixture } from '../../../support/slack-delivery';
import { openSlackHarness, PEOPLE } from '../../../support/slack-harness';
import type { StoredSlackMessage } from '../../../support/stand-ins/slack-web-api-stand-in';

/** What a person sees of a message: its text, or the text of its blocks when it has them. */
function visibleText(message: StoredSlackMessage): string {
  if (message.blocks === null) return message.text;
  const texts: string[] = [];
  const walk = (value: unknown) => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (typeof value === 'object' && value !== null) {
      const record = value as Record<string, unknown>;
      if (typeof record.text === 'string') texts.push(record.text);
      for (const [key, child] of Object.entries(record))
        if (key !== 'text' || typeof child !== 'string') walk(child);
    }
  };
  walk(message.blocks);
  return texts.join('\n');
}

describePlatformContract('Slack', async () => {
  const h = await openSlackHarness();
  const threads = new Map<string, string>();
  let echoed = 0;
  return {
    platform: h.front.platform,
    engine: h.recording,
    boundChannel: CHANNEL,
    personId: PEOPLE.dana.userId,
    encodeThreadId: encodeSlackThreadId,
    decodeThreadId: decodeSlackThreadId,
    sampleThreadParts: [
      { channel: CHANNEL, threadTs: '1764700100.000100' },
      { channel: 'C0OTHER001', threadTs: '1764700100.000100' },
      { channel: 'G0PRIVATE1', threadTs: '1764700200.000001' },
      { channel: 'D0DIRECT01', threadTs: '1.2' },
    ],
    foreignThreadIds: [
      'terminal:general:1',
      'discord:1:2:3',
      'slack:C0GENERAL1',
      'slack:c0general1:1764700100.000100',
      'slack:C0GENERAL1:not-a-ts',
      'slack:C0GENERAL1:1764700100.000100:extra',
    ],
    threadIdFor: async (channel, n) => {
      const key = `${channel}#${n}`;
      let id = threads.get(key);
      if (id === undefined) {
        // A thread starts with a person's top-level message in the channel.
        id = encodeSlackThreadId({ channel, threadTs: h.standIn.addPersonMessage(channel, null) });
        threads.set(key, id);
      }
      return id;
    },
    messagesIn: async (thread) => {
      const parts = decodeSlackThreadId(thread);
      if (parts === null) return [];
      return h.standIn
        .inThread(parts.channel, parts.threadTs)
        .filter((m) => m.botId !== '')
        .map((m): SeenMessage => ({ ref: m.ts, author: m.username ?? 'Summon', text: visibleText(m) }));
    },
    privateMessagesIn: async (thread) => {
      const parts = decodeSlackThreadId(thread);
      return h.standIn.ephemerals
        .filter((e) => e.channel === parts?.channel && e.threadTs === parts?.threadTs)
        .map((e) => ({ to: e.user, text: e.text }));
    },
    deliverPersonMessage: async (thread, text) => {
      const parts = decodeSlackThreadId(thread);
      if (parts === null) throw new Error(`not a Slack thread: ${thread}`);
      const ts = h.standIn.addPersonMessage(parts.channel, parts.threadTs);
      const payload = eventFrom(
        'message-thread-reply',
        { ts, thread_ts: parts.threadTs, channel: parts.channel, text },
        `Ev${ts.replace('.', '')}`,
      );
      const response = await h.deliver(payload);
      if (response.status !== 200) throw new Error(`delivery answered ${response.status}`);
    },
    // N13: a person clicks the option button of the question card.
    answerQuestion: async (thread, cardRef, answer) => {
      const parts = decodeSlackThreadId(thread);
      const card = h.standIn.messages.find((m) => m.channel === parts?.channel && m.ts === cardRef);
      if (card === undefined) throw new Error(`no question card ${cardRef} in ${thread}`);
      const response = await h.deliver(clickPayload(card, PEOPLE.dana.userId, `summon_answer_${answer}`));
      if (response.status !== 200) throw new Error(`click answered ${response.status}`);
      // The click is acknowledged at once; its effect follows.
      await waitFor(async () => h.recording.calls.some((c) => c.kind === 'answerQuestion'));
    },
    // P10: Slack echoes the bot's posts as `message` events (subtype bot_message, the bot's id).
    echoOwnPosts: async () => {
      const own = h.standIn.messages.filter((m) => m.botId !== '').slice(echoed);
      echoed += own.length;
      for (const m of own) {
        const payload = eventFrom(
          'message-bot-own-post',
          {
            ts: m.ts,
            thread_ts: m.threadTs ?? m.ts,
            channel: m.channel,
            text: m.text,
            username: m.username ?? undefined,
          },
          `Ev${m.ts.replace('.', '')}`,
        );
        await h.deliver(payload);
        // The `message_changed` an edit produces is not input either.
        if (m.edits > 0) {
          const changed = fixture('message-channel');
          await h.deliver({
            ...changed,
            event_id: `Ev${m.ts.replace('.', '')}e`,
            event: {
              type: 'message',
              subtype: 'message_changed',
              channel: m.channel,
              ts: h.standIn.nextTs(),
              message: { type: 'message', bot_id: m.botId, text: m.text, ts: m.ts },
            },
          });
        }
      }
    },
    close: () => h.close(),
  };
});
