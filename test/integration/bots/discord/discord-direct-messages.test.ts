import { encodeDiscordThreadId } from '../../../../src/bots/discord/discord-thread-id';
import { type DiscordHarness, openDiscordHarness, visibleText } from '../../../support/discord-harness';
import { waitFor } from '../../../support/engine-harness';
import { RecordingChatEngine } from '../../../support/platform-contract';
import { ScriptedRunner } from '../../../support/scripted-runner';

describe('P1: a Discord direct message is a one-person space with the top-level agent', () => {
  let h: DiscordHarness;
  afterEach(async () => {
    await h.close();
    expect(h.standIn.refusals).toEqual([]);
  });

  it('P1, P2: a member’s DM is answered by the top-level agent, posted by the bot with the agent’s name in the content; the DM stays one conversation', async () => {
    h = await openDiscordHarness({
      runner: new ScriptedRunner({}, (request) => [{ type: 'final', text: `${request.agent.name} here` }]),
    });
    const dm = h.standIn.dmChannelWith(h.people.dana.id);
    h.standIn.say(h.people.dana, dm, 'what is on today?');
    await h.settled(1);
    const answer = await waitFor(
      async () =>
        h.standIn
          .messagesIn(dm)
          .find((m) => m.author.id === h.standIn.bot.id && m.content.endsWith(' here')) ?? null,
    );
    // No webhooks in a DM: the bot posts as itself and names the agent.
    expect(answer.webhook_id).toBeUndefined();
    expect(answer.content).toMatch(/^\*\*[a-z]+\*\*\n[a-z]+ here$/);
    const agent = /^\*\*([a-z]+)\*\*/.exec(answer.content)?.[1];
    const binding = await h.store.transaction((tx) => tx.channelBindings.find('discord', dm));
    expect(binding).not.toBeNull();
    const space = await h.store.transaction(async (tx) =>
      (await tx.spaces.list(binding?.workspaceId ?? '')).find((s) => s.id === binding?.spaceId),
    );
    expect(space).toMatchObject({ name: 'dm-dana', dedicated: true });
    const top = await h.store.transaction(async (tx) =>
      (await tx.agents.list(binding?.workspaceId ?? '')).find((a) => a.reportsToId === null),
    );
    expect(agent).toBe(top?.name);
    // A second message continues the same conversation, without a mention.
    h.standIn.say(h.people.dana, dm, 'and tomorrow?');
    const runs = await h.settled(2);
    expect(new Set(runs.map((r) => r.conversationId)).size).toBe(1);
    expect(
      h.standIn.calls.filter((c) => c.path.includes('/webhooks/') && JSON.stringify(c.query).includes(dm)),
    ).toEqual([]);
  });

  it('N13: a question card in a DM is answered by its button, for the DM space’s workspace', async () => {
    const engine = new RecordingChatEngine();
    h = await openDiscordHarness({ engine });
    const dm = h.standIn.dmChannelWith(h.people.dana.id);
    const said = h.standIn.say(h.people.dana, dm, 'hello');
    await waitFor(async () => engine.received.some((m) => m.messageRef === said.id));
    const [received] = engine.received;
    const thread = encodeDiscordThreadId({ guild: h.standIn.guildId, channel: dm, thread: dm });
    expect(received).toMatchObject({ thread, channelId: dm, topLevel: false, senderId: h.people.dana.id });
    const ref = await h.frontEnd.platform.post(thread, {
      as: { kind: 'agent', name: 'ceo', avatarUrl: null },
      content: {
        kind: 'question',
        card: {
          questionId: 'q-1',
          agent: 'ceo',
          text: 'Ship today?',
          options: ['yes', 'no'],
          status: 'pending',
          answer: null,
          answeredBy: null,
        },
      },
    });
    const card = h.standIn.messagesIn(dm).find((m) => m.id === ref);
    if (card === undefined) throw new Error('no card');
    expect(visibleText(card)).toContain('Ship today?');
    const no = card.components[0]?.components?.[1]?.custom_id ?? '';
    const click = h.standIn.click(h.people.dana, card, no);
    const answered = await waitFor(async () => engine.calls.find((c) => c.kind === 'answerQuestion') ?? null);
    expect(answered).toMatchObject({
      kind: 'answerQuestion',
      questionId: 'q-1',
      answer: '2',
      actor: {
        workspace: { platform: 'discord', externalId: h.standIn.guildId },
        senderId: h.people.dana.id,
      },
    });
    expect(click.callbacks).toEqual([{ type: 6 }]);
    // Edits in a DM are the bot's own message edits.
    await h.frontEnd.platform.update(thread, ref, {
      as: { kind: 'agent', name: 'ceo', avatarUrl: null },
      content: {
        kind: 'question',
        card: {
          questionId: 'q-1',
          agent: 'ceo',
          text: 'Ship today?',
          options: ['yes', 'no'],
          status: 'answered',
          answer: 'no',
          answeredBy: 'dana',
        },
      },
    });
    expect(visibleText(card)).toContain('Answered by dana: no');
  });
});
