import { ACTIONS } from '../../../../src/bots/slack/outbound/slack-cards';
import { createToolKit } from '../../../../src/core/engine/tool-kit/turn-tool-kit';
import { waitFor } from '../../../support/engine-harness';
import { type Script, ScriptedRunner } from '../../../support/scripted-runner';
import { clickPayload } from '../../../support/slack-clicks';
import { CHANNEL, eventFrom } from '../../../support/slack-delivery';
import { openSlackHarness, PEOPLE, type SlackHarness } from '../../../support/slack-harness';
import type { StoredSlackMessage } from '../../../support/stand-ins/slack-web-api-stand-in';

/** A turn that hands the text to another agent with send_to_agent, then says so. */
const handsTo = (agent: string, text: string): Script =>
  async function* (request) {
    yield { type: 'tool_start', callId: 'send-1', tool: 'send_to_agent', summary: agent };
    const outcome = await request.tools.call(
      { callId: 'send-1', name: 'send_to_agent', input: { agent, text } },
      request.signal,
    );
    yield { type: 'tool_end', callId: 'send-1', ok: outcome.ok };
    yield { type: 'final', text: `Handed to ${agent}.` };
  };
const say =
  (text: string): Script =>
  () => [{ type: 'final', text }];

describe('N1–N3, P4: a note’s badge on Slack names and links its source conversation', () => {
  let h: SlackHarness;
  afterEach(() => h.close());

  const open = async () => {
    h = await openSlackHarness({
      runner: new ScriptedRunner({
        engineer: handsTo('architect', 'Draft a design note for the cache.'),
        architect: say('Design note drafted.'),
      }),
      tools: createToolKit([], {}),
    });
    // N4: architect is not in the space, so it is reached in a new conversation (a new thread).
    await h.read(async (tx) => {
      const architect = (await tx.agents.list(h.local.workspace.id)).find((a) => a.name === 'architect');
      const participants = await tx.spaces.listParticipants(h.local.space.id);
      await tx.spaces.setParticipants(
        h.local.space.id,
        participants.filter((p) => !(p.kind === 'agent' && p.agentId === architect?.id)),
      );
    });
  };
  const start = async () => {
    const ts = h.standIn.addPersonMessage(CHANNEL, null);
    await h.deliver(eventFrom('message-channel', { ts, text: '@engineer get a design note for the cache' }));
    return ts;
  };
  /** The note in the thread the agent started, once architect has answered there. */
  const noteAfterAnswer = async (): Promise<StoredSlackMessage> =>
    waitFor(async () => {
      const note = h.standIn.messages.find((m) => JSON.stringify(m.blocks ?? []).includes(':memo:'));
      if (note === undefined || note.threadTs === null) return null;
      const answered = h.standIn
        .inThread(CHANNEL, note.threadTs)
        .some((m) => m.username === 'architect' && m.text === 'Design note drafted.');
      // N9: folded once its turn answered (the Open button).
      return answered && JSON.stringify(note.blocks).includes(ACTIONS.noteOpen) ? note : null;
    }, 10_000);
  const badgeOf = (note: StoredSlackMessage) => {
    const row = note.blocks?.[0] as { elements?: { text: string }[] } | undefined;
    return (row?.elements ?? []).map((e) => e.text)[1];
  };

  it('N3: the badge links the source thread with Slack’s permalink and names it by its title (N2)', async () => {
    await open();
    const ts = await start();
    const note = await noteAfterAnswer();
    expect(note.threadTs).not.toBe(ts);
    const title = await h.read(
      async (tx) => (await tx.conversations.findByThread('slack', `slack:${CHANNEL}:${ts}`))?.title,
    );
    expect(title).toBeTruthy();
    const permalink = `https://acme.slack.com/archives/${CHANNEL}/p${ts.replace('.', '')}`;
    expect(badgeOf(note)).toBe(`in <${permalink}|“${title}”>`);
    expect(note.username).toBe('engineer');
    // Asked of Slack with the source thread's root, as chat.getPermalink requires.
    const asked = h.standIn.okCalls('chat.getPermalink');
    expect(asked.length).toBeGreaterThanOrEqual(1);
    expect(asked[0]?.params).toMatchObject({ channel: CHANNEL, message_ts: ts });
  });

  it('N2: opened, the badge also says who sent the note', async () => {
    await open();
    await start();
    const note = await noteAfterAnswer();
    const click = clickPayload(note, PEOPLE.mia.userId, ACTIONS.noteOpen);
    expect((await h.deliver(click)).status).toBe(200);
    await waitFor(async () =>
      badgeOf(h.standIn.messages.find((m) => m.ts === note.ts) ?? note)?.startsWith('from'),
    );
    expect(badgeOf(h.standIn.messages.find((m) => m.ts === note.ts) ?? note)).toMatch(
      /^from \*engineer\* in <https:\/\/acme\.slack\.com\/archives\/.+\|“.+”>$/,
    );
  });

  it('N3: when Slack gives no permalink the badge names the source as plain text, and the note still arrives', async () => {
    await open();
    h.standIn.failNext('chat.getPermalink', { status: 500 }, 50);
    await start();
    const note = await noteAfterAnswer();
    expect(badgeOf(note)).toMatch(/^in “.+”$/);
    expect(h.standIn.okCalls('chat.getPermalink')).toHaveLength(0);
    expect(h.standIn.calls.filter((c) => c.method === 'chat.getPermalink').length).toBeGreaterThanOrEqual(1);
  });
});
