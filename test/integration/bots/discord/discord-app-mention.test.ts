import { type DiscordHarness, openDiscordHarness } from '../../../support/discord-harness';
import { waitFor } from '../../../support/engine-harness';
import { ScriptedRunner } from '../../../support/scripted-runner';

/** P12 on Discord: the bot user's mention, or its managed role's, summons the M3 responder. */
describe('P12: the app’s own mention on Discord', () => {
  let h: DiscordHarness;
  let prompts: { agent: string; prompt: string }[];
  beforeEach(async () => {
    prompts = [];
    h = await openDiscordHarness({
      runner: new ScriptedRunner({}, (request) => {
        // The person's words end the composed prompt (after persona, space and history).
        const words = (request.prompt.split('## Prompt').pop() ?? '').trim();
        prompts.push({ agent: request.agent.name, prompt: words });
        return [{ type: 'final', text: `${request.agent.name} here` }];
      }),
    });
  });
  /** M3's last resort: the space's top-level agent (`backend` has only engineer and qa, who report to ceo). */
  const addLead = () =>
    h.inAcme(async (tx, workspaceId) => {
      const ceo = await tx.agents.findByName(workspaceId, 'ceo');
      const space = await tx.spaces.findByName(workspaceId, 'backend');
      if (ceo === null || space === null) throw new Error('no ceo or backend');
      await tx.spaces.addParticipant(space.id, { kind: 'agent', agentId: ceo.id });
    });
  afterEach(async () => {
    await h.close();
    expect(h.standIn.refusals).toEqual([]);
  });

  it('P12: where M3 finds nobody to answer, the app’s mention says how to reach an agent', async () => {
    const asked = h.standIn.say(h.people.dana, h.channel, `<@${h.standIn.bot.id}> can someone look at this?`);
    const help = await h.waitInThread(asked, (m) => m.content.includes('/summon help'));
    expect(help.content).toMatch(/No agent here answers without being named/);
    expect(help.content).toMatch(/Agents here: .*engineer/);
    expect(prompts).toEqual([]);
  });

  it('P12: the bot’s mention at the top level of a shared channel summons the M3 responder', async () => {
    await addLead();
    // P3: without it, the same message is for people.
    const plain = h.standIn.say(h.people.dana, h.channel, 'can someone look at this?');
    const asked = h.standIn.say(h.people.dana, h.channel, `<@${h.standIn.bot.id}> can someone look at this?`);
    await h.waitInThread(asked, (m) => m.content.endsWith(' here'));
    expect(prompts).toEqual([{ agent: 'ceo', prompt: 'can someone look at this?' }]);
    expect(h.thread(plain)).toEqual([]);
  });

  it('P12: the bot’s managed role reads as the app’s mention and is dropped from the prompt', async () => {
    await addLead();
    const asked = h.standIn.say(h.people.dana, h.channel, `<@&${h.standIn.botRoleId}> please help`);
    await h.waitInThread(asked, (m) => m.content.endsWith(' here'));
    expect(prompts).toEqual([{ agent: 'ceo', prompt: 'please help' }]);
  });

  it('P12: the app’s mention alone answers with a short help; nobody starts', async () => {
    const asked = h.standIn.say(h.people.dana, h.channel, `<@${h.standIn.bot.id}>`);
    const help = await h.waitInThread(asked, (m) => m.content.includes('/summon help'));
    expect(help.content).toMatch(/Agents here: .*engineer/);
    await waitFor(async () => (await h.runs()).length === 0);
    expect(prompts).toEqual([]);
  });
});
