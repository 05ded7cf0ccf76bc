import { unknownCommand } from '../../../../src/bots/discord/inbound/discord-interactions';
import { FORM_NO_LONGER_ACTIVE, NO_LONGER_ACTIVE } from '../../../../src/core/commands/unknown-interaction';
import { type DiscordHarness, openDiscordHarness } from '../../../support/discord-harness';
import { waitFor } from '../../../support/engine-harness';
import { replies, ScriptedRunner } from '../../../support/scripted-runner';

const EPHEMERAL = 64;
const REPLY = 4;

/**
 * P17: an interaction left unanswered shows "This interaction failed" after Discord's 3 seconds.
 * Whatever Summon no longer knows is answered at once, only to the person.
 */
describe('P17: Discord interactions Summon does not know are answered at once', () => {
  let h: DiscordHarness;
  beforeEach(async () => {
    h = await openDiscordHarness({ runner: new ScriptedRunner({ engineer: replies('On it.') }) });
  });
  afterEach(async () => {
    await h.close();
    expect(h.standIn.refusals).toEqual([]);
  });

  it('P17: a button of a card from an older version is answered privately', async () => {
    const asked = h.standIn.say(h.people.dana, h.channel, '@engineer hello');
    const reply = await h.waitInThread(asked, (m) => m.content === 'On it.');
    const click = h.standIn.click(h.people.mo, reply, 'retry:v0:1234');
    await waitFor(async () => click.callbacks.length === 1);
    expect(click.callbacks[0]).toMatchObject({
      type: REPLY,
      data: { flags: EPHEMERAL, content: NO_LONGER_ACTIVE },
    });
  });

  it('P17: a command Discord still shows after it was removed says which commands exist', async () => {
    const run = h.standIn.staleCommand(h.people.dana, h.channel, 'deploy');
    await waitFor(async () => run.callbacks.length === 1);
    expect(run.callbacks[0]).toMatchObject({
      type: REPLY,
      data: { flags: EPHEMERAL, content: unknownCommand('deploy') },
    });
    expect(await h.runs()).toEqual([]);
  });

  it('P17: a form Summon does not know is answered privately', async () => {
    const form = h.standIn.submitForm(h.people.dana, h.channel, 'summon_old_form');
    await waitFor(async () => form.callbacks.length === 1);
    expect(form.callbacks[0]).toMatchObject({
      type: REPLY,
      data: { flags: EPHEMERAL, content: FORM_NO_LONGER_ACTIVE },
    });
  });
});
