import { decodeCustomId } from '../../../../src/bots/discord';
import { encodeDiscordThreadId } from '../../../../src/bots/discord/discord-thread-id';
import type { OutboundMessage, QuestionCard } from '../../../../src/core/ports/chat-platform';
import { type DiscordHarness, openDiscordHarness, visibleText } from '../../../support/discord-harness';
import { waitFor } from '../../../support/engine-harness';
import { RecordingChatEngine } from '../../../support/platform-contract';

const EPHEMERAL = 64;

const question = (card: Partial<QuestionCard>): OutboundMessage => ({
  as: { kind: 'agent', name: 'engineer', avatarUrl: null },
  content: {
    kind: 'question',
    card: {
      questionId: '0b7e3c1e-6f4f-4c1b-9a53-8a4f0f0b7d21',
      agent: 'engineer',
      text: 'Which database should the report use?',
      options: ['PostgreSQL', 'SQLite'],
      status: 'pending',
      answer: null,
      answeredBy: null,
      ...card,
    },
  },
});

describe('Discord front end: question cards (N13)', () => {
  let h: DiscordHarness;
  let engine: RecordingChatEngine;
  let thread: string;
  beforeEach(async () => {
    engine = new RecordingChatEngine({
      answerQuestion: (_id, _answer, actor) =>
        actor.senderId === h.people.stranger.id
          ? { ok: false, reason: 'Only members of this space can answer.' }
          : { ok: true },
    });
    h = await openDiscordHarness({ engine });
    const start = h.standIn.seed(h.people.mo, h.channel, 'topic');
    h.standIn.startThreadAs(start, 'topic');
    h.frontEnd.platform.knowThread(start.id); // as when a message arrived from inside it
    thread = encodeDiscordThreadId({ guild: h.standIn.guildId, channel: h.channel, thread: start.id });
  });
  afterEach(async () => {
    await h.close();
    expect(h.standIn.refusals).toEqual([]);
  });

  const cardIn = (ref: string) => {
    const parts = thread.split(':');
    const card = h.standIn.messagesIn(parts[3] ?? '').find((m) => m.id === ref);
    if (card === undefined) throw new Error(`no card ${ref}`);
    return card;
  };
  const buttonsOf = (ref: string) => cardIn(ref).components.flatMap((row) => row.components ?? []);

  it('N13: a pending card shows the agent, the question and one button per numbered option; a click answers it', async () => {
    const ref = await h.frontEnd.platform.post(thread, question({}));
    const shown = visibleText(cardIn(ref));
    expect(shown).toContain('engineer asks');
    expect(shown).toContain('Which database should the report use?');
    expect(shown).toContain('reply in this thread');
    const buttons = buttonsOf(ref);
    expect(buttons.map((b) => b.label)).toEqual(['1. PostgreSQL', '2. SQLite']);
    for (const b of buttons) expect((b.custom_id ?? '').length).toBeLessThanOrEqual(100);
    expect(decodeCustomId(buttons[1]?.custom_id ?? '')).toEqual({
      kind: 'answer',
      option: 2,
      questionId: '0b7e3c1e-6f4f-4c1b-9a53-8a4f0f0b7d21',
    });

    const click = h.standIn.click(h.people.dana, cardIn(ref), buttons[1]?.custom_id ?? '');
    await waitFor(async () => engine.calls.length === 1);
    expect(engine.calls[0]).toMatchObject({
      kind: 'answerQuestion',
      questionId: '0b7e3c1e-6f4f-4c1b-9a53-8a4f0f0b7d21',
      answer: '2',
      actor: { platform: 'discord', senderId: h.people.dana.id },
    });
    expect(click.callbacks).toEqual([{ type: 6 }]); // acknowledged within 3 s, no reply
    expect(click.followUps).toEqual([]);
  });

  it('N13: a refused answer is told only to the clicker (ephemeral) and the card stays as it was', async () => {
    const ref = await h.frontEnd.platform.post(thread, question({}));
    const before = visibleText(cardIn(ref));
    const click = h.standIn.click(h.people.stranger, cardIn(ref), buttonsOf(ref)[0]?.custom_id ?? '');
    await waitFor(async () => click.followUps.length === 1);
    expect(click.followUps[0]?.content).toBe('Only members of this space can answer.');
    expect(click.followUps[0]?.flags).toBe(EPHEMERAL);
    expect(visibleText(cardIn(ref))).toBe(before);
    expect(h.log()).toContain('a button click was refused');
  });

  it('N13: answered, the card shows the answer and who gave it; cancelled, that it no longer waits; no buttons either way', async () => {
    const ref = await h.frontEnd.platform.post(thread, question({}));
    await h.frontEnd.platform.update(
      thread,
      ref,
      question({ status: 'answered', answer: 'SQLite', answeredBy: 'dana' }),
    );
    expect(visibleText(cardIn(ref))).toContain('Answered by dana: SQLite');
    expect(buttonsOf(ref)).toEqual([]);
    const other = await h.frontEnd.platform.post(thread, question({ options: [] }));
    expect(visibleText(cardIn(other))).toContain('Reply in this thread to answer.');
    expect(buttonsOf(other)).toEqual([]);
    await h.frontEnd.platform.update(thread, other, question({ options: [], status: 'cancelled' }));
    expect(visibleText(cardIn(other))).toContain('No longer waiting');
  });

  it('N13: 25 options fit Discord’s five rows of five buttons; labels are clipped to 80 characters', async () => {
    const options = Array.from({ length: 25 }, (_, i) => `option ${i + 1} ${'x'.repeat(100)}`);
    const ref = await h.frontEnd.platform.post(thread, question({ options }));
    const card = cardIn(ref);
    expect(card.components).toHaveLength(5);
    expect(card.components.every((row) => (row.components ?? []).length === 5)).toBe(true);
    expect(buttonsOf(ref).every((b) => (b.label ?? '').length <= 80)).toBe(true);
  });
});
