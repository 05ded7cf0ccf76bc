import { openDiscordHarness } from '../../../support/discord-harness';
import { replies, ScriptedRunner } from '../../../support/scripted-runner';

it('debug', async () => {
  const h = await openDiscordHarness({ runner: new ScriptedRunner({ engineer: replies('done.') }) });
  const asked = h.standIn.say(h.people.dana, h.channel, '@engineer fix the login bug');
  await new Promise((r) => setTimeout(r, 3000));
  console.log(JSON.stringify(h.standIn.calls.map((c) => [c.method, c.path, c.status, JSON.stringify(c.body)?.slice(0, 300)]), null, 1));
  console.log(h.log().split('\n').map((l) => l.slice(0, 400)).join('\n'));
  console.log(JSON.stringify(h.standIn.messagesIn(asked.id)).slice(0, 2000));
  await h.close();
});
