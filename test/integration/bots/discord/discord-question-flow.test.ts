import { createToolKit } from '../../../../src/core/engine/tool-kit/turn-tool-kit';
import { type DiscordHarness, openDiscordHarness, visibleText } from '../../../support/discord-harness';
import { waitFor } from '../../../support/engine-harness';
import type { Script } from '../../../support/scripted-runner';
import { ScriptedRunner } from '../../../support/scripted-runner';

const EPHEMERAL = 64;

/** The agent asks a question with two options, then says what it was told. */
const asking: Script = async function* (request) {
  yield { type: 'tool_start', callId: 'q', tool: 'ask_question', summary: 'ask_question' };
  const outcome = await request.tools.call(
    {
      callId: 'q',
      name: 'ask_question',
      input: { text: 'Which database should the report use?', options: ['PostgreSQL', 'SQLite'] },
    },
    request.signal,
  );
  yield { type: 'tool_end', callId: 'q', ok: outcome.ok };
  yield { type: 'final', text: `Going with it. (${outcome.output})` };
};

describe('N13 on Discord with the real engine: an agent’s question is answered in the thread', () => {
  let h: DiscordHarness;
  beforeEach(async () => {
    h = await openDiscordHarness({
      runner: new ScriptedRunner({ engineer: asking }),
      tools: createToolKit([], {}),
    });
  });
  afterEach(async () => {
    await h.close();
    expect(h.standIn.refusals).toEqual([]);
  });

  const questionCard = (asked: Parameters<DiscordHarness['thread']>[0]) =>
    h.waitInThread(asked, (m) => visibleText(m).includes('Which database should the report use?'));

  it('N13, P8: a stranger’s click is refused only to them; a member’s click on option 2 answers, the card says so, the run goes on', async () => {
    const asked = h.standIn.say(h.people.dana, h.channel, '@engineer build the report');
    const card = await questionCard(asked);
    const buttons = () => card.components.flatMap((row) => row.components ?? []);
    await waitFor(async () => buttons().length === 2);
    const refused = h.standIn.click(h.people.stranger, card, buttons()[1]?.custom_id ?? '');
    await waitFor(async () => refused.followUps.length === 1);
    expect(refused.followUps[0]?.flags).toBe(EPHEMERAL);
    expect(buttons()).toHaveLength(2);

    h.standIn.click(h.people.mo, card, buttons()[1]?.custom_id ?? '');
    await h.waitInThread(asked, (m) => m.content === 'Going with it. (Answer: SQLite)');
    await h.settled(1);
    await waitFor(async () => visibleText(card).includes('Answered by mo: SQLite'));
    expect(buttons()).toEqual([]);
  });

  it('N13: a reply in the thread naming no agent answers in one’s own words', async () => {
    const asked = h.standIn.say(h.people.dana, h.channel, '@engineer build the report');
    const card = await questionCard(asked);
    h.standIn.say(h.people.dana, asked.id, 'SQLite, but keep it small');
    await h.waitInThread(asked, (m) => m.content === 'Going with it. (Answer: SQLite, but keep it small)');
    await h.settled(1);
    await waitFor(async () => visibleText(card).includes('Answered by dana: SQLite, but keep it small'));
  });
});
