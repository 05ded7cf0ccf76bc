import { type DiscordHarness, openDiscordHarness, visibleText } from '../../../support/discord-harness';
import { waitFor } from '../../../support/engine-harness';
import { type Script, ScriptedRunner } from '../../../support/scripted-runner';
import type { StoredMessage } from '../../../support/stand-ins/discord/discord-stand-in';

const EPHEMERAL = 64;

/** Works until aborted, with a reply naming @qa already written (M14: stopped, nobody is woken). */
const untilStopped: Script = async function* (request) {
  yield { type: 'text', delta: 'Looking. @qa please verify.' };
  yield { type: 'tool_start', callId: 'c1', tool: 'bash', summary: 'npm test' };
  await new Promise<void>((resolve) =>
    request.signal.addEventListener('abort', () => resolve(), { once: true }),
  );
};

describe('P15: Stop on a Discord status card', () => {
  let h: DiscordHarness;
  let runner: ScriptedRunner;

  beforeEach(async () => {
    runner = new ScriptedRunner({ engineer: untilStopped, qa: () => [{ type: 'final', text: 'qa ran' }] });
    h = await openDiscordHarness({ runner });
  });
  afterEach(async () => {
    await h?.close();
    expect(h.standIn.refusals).toEqual([]);
  });

  const cardIn = (asked: StoredMessage) =>
    h.thread(asked).find((m) => (m.embeds[0]?.title ?? '').startsWith('engineer · '));
  const stopButton = (card: StoredMessage | undefined) =>
    card?.components[0]?.components?.find((c) => c.label === 'Stop')?.custom_id ?? null;
  const runs = () => h.runs();

  it('P15, M14: the starter (a member) stops the turn: the card says who, loses its button, no reply, nobody woken', async () => {
    const asked = h.standIn.say(h.people.mo, h.channel, '@engineer run the tests');
    // The runner is at work (its tool row is on the card), Stop beside it.
    await waitFor(
      async () =>
        stopButton(cardIn(asked)) !== null &&
        visibleText(cardIn(asked) as StoredMessage).includes('npm test'),
      10_000,
    );
    const card = cardIn(asked);
    if (card === undefined) throw new Error('no status card');
    const [run] = await runs();
    expect(stopButton(card)).toBe(`stop:run:${run?.id}`);

    h.standIn.click(h.people.mo, card, stopButton(card) ?? '');
    await waitFor(async () => visibleText(cardIn(asked) as StoredMessage).includes('Stopped by @mo'));
    expect(cardIn(asked)?.embeds[0]?.title).toBe('engineer · stopped');
    expect(cardIn(asked)?.components).toEqual([]);
    await waitFor(async () => (await runs()).every((r) => r.status === 'failed'));
    expect(await runs()).toMatchObject([{ status: 'failed', error: 'Stopped by @mo' }]);
    // P14: the card and the words streamed before the stop are all the thread has from the turn
    // (nothing more is posted); qa never ran.
    expect(h.thread(asked).map((m) => m.id === card.id || m.content)).toEqual([
      true,
      'Looking. @qa please verify.',
    ]);
    expect(runner.requests.map((r) => r.agent.name)).toEqual(['engineer']);
  });

  it('P15: an admin may stop a turn someone else started', async () => {
    const max = { id: h.standIn.newId(), username: 'max' };
    await h.inAcme((tx, ws) =>
      tx.members.insert(ws, { nickname: 'max', role: 'admin', slackUserId: null, discordUserId: max.id }),
    );
    const asked = h.standIn.say(h.people.mo, h.channel, '@engineer run the tests');
    await waitFor(async () => stopButton(cardIn(asked)) !== null, 10_000);
    const card = cardIn(asked);
    if (card === undefined) throw new Error('no status card');

    const clicked = h.standIn.click(max, card, stopButton(card) ?? '');
    await waitFor(async () => visibleText(cardIn(asked) as StoredMessage).includes('Stopped by @max'));
    expect(cardIn(asked)?.components).toEqual([]);
    await waitFor(async () => (await runs()).every((r) => r.status === 'failed'));
    expect(await runs()).toMatchObject([{ status: 'failed', error: 'Stopped by @max' }]);
    // Nobody is told "only the person who started this turn…".
    expect(clicked.followUps).toEqual([]);
  });

  it('P15, P5: a member who did not start the turn is told why, only them; an approver then stops it', async () => {
    const asked = h.standIn.say(h.people.dana, h.channel, '@engineer run the tests');
    await waitFor(async () => stopButton(cardIn(asked)) !== null, 10_000);
    const card = cardIn(asked);
    if (card === undefined) throw new Error('no status card');

    const refused = h.standIn.click(h.people.mo, card, stopButton(card) ?? '');
    await waitFor(async () => refused.followUps.length === 1);
    expect(refused.followUps[0]?.flags).toBe(EPHEMERAL);
    expect(refused.followUps[0]?.content).toMatch(
      /only the person who started this turn, or an owner, admin or approver/i,
    );
    expect(await runs()).toMatchObject([{ status: 'running', error: null }]);
    expect(stopButton(cardIn(asked))).not.toBeNull();

    h.standIn.click(h.people.dana, card, stopButton(card) ?? '');
    await waitFor(async () => visibleText(cardIn(asked) as StoredMessage).includes('Stopped by @dana'));
    await waitFor(async () => (await runs()).every((r) => r.status === 'failed'));
  });
});
