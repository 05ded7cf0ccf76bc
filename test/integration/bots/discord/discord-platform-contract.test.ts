import type { DiscordThreadParts } from '../../../../src/bots/discord';
import { decodeDiscordThreadId, encodeDiscordThreadId, privateText } from '../../../../src/bots/discord';
import { type DiscordHarness, openDiscordHarness, visibleText } from '../../../support/discord-harness';
import { waitFor } from '../../../support/engine-harness';
import { describePlatformContract, RecordingChatEngine } from '../../../support/platform-contract';

let h: DiscordHarness | null = null;

describePlatformContract<DiscordThreadParts>('Discord (discord.js against the stand-in)', async () => {
  const engine = new RecordingChatEngine();
  const harness = await openDiscordHarness({ engine });
  h = harness;
  const { standIn } = harness;
  const threads = new Map<string, string>();
  return {
    platform: harness.frontEnd.platform,
    engine,
    boundChannel: harness.channel,
    personId: harness.people.dana.id,
    encodeThreadId: encodeDiscordThreadId,
    decodeThreadId: decodeDiscordThreadId,
    sampleThreadParts: [
      { guild: '100', channel: '200', thread: '300' },
      { guild: '100', channel: '200', thread: '301' },
      { guild: '100', channel: '201', thread: '300' },
      { guild: '1576799801985474560', channel: '1576799801985478656', thread: '1576799801985507328' },
    ],
    foreignThreadIds: [
      'slack:C1:1700000000.000100',
      'terminal:general:1',
      'discord:100:200',
      'discord:100:200:abc',
      'discord:100:200:300:400',
      'discord::200:300',
    ],
    threadIdFor: async (channel, n) => {
      const key = `${channel}:${n}`;
      const known = threads.get(key);
      if (known !== undefined) return known;
      // A message people wrote before, and the thread started from it.
      const start = standIn.seed(harness.people.mo, channel, `topic ${n}`);
      standIn.startThreadAs(start, `topic ${n}`);
      const id = encodeDiscordThreadId({ guild: standIn.guildId, channel, thread: start.id });
      threads.set(key, id);
      return id;
    },
    messagesIn: async (thread) => {
      const parts = decodeDiscordThreadId(thread);
      if (parts === null) throw new Error(`not a Discord thread: ${thread}`);
      // Discord shows a thread under the message it was started from (same id, in the channel).
      const starter = standIn.messagesIn(parts.channel).filter((m) => m.id === parts.thread);
      return [...starter, ...standIn.messagesIn(parts.thread)].map((m) => ({
        ref: m.id,
        author: m.author.username,
        text: visibleText(m),
      }));
    },
    privateMessagesIn: async (thread) => {
      const parts = decodeDiscordThreadId(thread);
      if (parts === null) return [];
      const suffix = privateText('', parts.thread);
      return standIn
        .directMessages()
        .filter(({ message }) => message.content.endsWith(suffix))
        .map(({ to, message }) => ({ to, text: message.content.slice(0, -suffix.length) }));
    },
    deliverPersonMessage: async (thread, text) => {
      const parts = decodeDiscordThreadId(thread);
      if (parts === null) throw new Error(`not a Discord thread: ${thread}`);
      const said = standIn.say(harness.people.dana, parts.thread, text);
      await waitFor(async () => engine.received.some((m) => m.messageRef === said.id));
    },
    // N13: a person clicks the option button of the question card.
    answerQuestion: async (thread, cardRef, answer) => {
      const parts = decodeDiscordThreadId(thread);
      const card = standIn.messagesIn(parts?.thread ?? '').find((m) => m.id === cardRef);
      if (card === undefined) throw new Error(`no question card ${cardRef} in ${thread}`);
      const button = card.components
        .flatMap((row) => row.components ?? [])
        .find((c) => c.label?.startsWith(`${answer}. `));
      if (button?.custom_id === undefined) throw new Error(`no button for option ${answer}`);
      const click = standIn.click(harness.people.dana, card, button.custom_id);
      await waitFor(async () => engine.calls.some((c) => c.kind === 'answerQuestion'));
      // Discord's 3 seconds: the click was acknowledged (deferred update).
      await waitFor(async () => click.responded);
      expect(click.callbacks.map((c) => c.type)).toEqual([6]);
    },
    echoOwnPosts: async () => {
      // The stand-in shows every webhook post to the bot over the gateway, as Discord does;
      // wait until the client has taken them all in.
      const posted = standIn.calls.filter((c) => c.method === 'POST' && c.path.includes('/webhooks/')).length;
      expect(posted).toBeGreaterThan(0);
      await new Promise((resolve) => setTimeout(resolve, 300));
      await harness.frontEnd.idle();
    },
    close: async () => {
      await harness.close();
      expect(standIn.refusals.filter((c) => c.path.includes('/webhooks/') && c.status !== 404)).toEqual([]);
      h = null;
    },
  };
});

afterAll(async () => {
  await h?.close();
});
