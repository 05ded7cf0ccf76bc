import { openDiscordHarness } from '../../../support/discord-harness';
import { replies, ScriptedRunner } from '../../../support/scripted-runner';

it('debug', async () => {
  let t = Date.now();
  const h = await openDiscordHarness({ runner: new ScriptedRunner({ engineer: replies('done.') }) });
  console.log('open', Date.now() - t);
  t = Date.now();
  const asked = h.standIn.say(h.people.dana, h.channel, '@engineer fix the login bug');
  await h.waitInThread(asked, (m) => m.content === 'done.');
  console.log('reply', Date.now() - t);
  t = Date.now();
  await h.close();
  console.log('close', Date.now() - t);
});
