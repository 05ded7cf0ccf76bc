import { waitFor } from '../../../support/engine-harness';
import { ScriptedRunner } from '../../../support/scripted-runner';
import { BOT_USER, CHANNEL, eventFrom } from '../../../support/slack-delivery';
import { openSlackHarness, type SlackHarness } from '../../../support/slack-harness';

/** P12: mentioning the app itself, the first thing people try, in a channel shared with people. */
describe('P12: the app’s own mention on Slack', () => {
  let h: SlackHarness;
  let prompts: { agent: string; prompt: string }[];
  beforeEach(async () => {
    prompts = [];
    h = await openSlackHarness({
      runner: new ScriptedRunner({}, (request) => {
        // The person's words end the composed prompt (after persona, space and history).
        prompts.push({
          agent: request.agent.name,
          prompt: (request.prompt.split('## Prompt').pop() ?? '').trim(),
        });
        return [{ type: 'final', text: `${request.agent.name} here` }];
      }),
    });
    // P3: a channel shared with people (the local chat's space is dedicated).
    await h.read((tx) => tx.spaces.update(h.local.space.id, { dedicated: false }));
  });
  afterEach(() => h.close());

  const say = async (text: string, event: 'app-mention' | 'message-channel' = 'app-mention') => {
    const ts = h.standIn.addPersonMessage(CHANNEL, null);
    expect((await h.deliver(eventFrom(event, { ts, text }))).status).toBe(200);
    return ts;
  };
  const repliesIn = (ts: string) =>
    h.standIn.inThread(CHANNEL, ts).filter((m) => m.blocks === null && m.username !== null);

  it('P12: `@Summon can someone look at this?` at the top level is answered by the M3 responder', async () => {
    // P3: without the app's mention the same message is for people.
    const plain = await say('can someone look at this?', 'message-channel');
    const ts = await say(`<@${BOT_USER}> can someone look at this?`);
    await waitFor(async () => repliesIn(ts).length === 1);
    expect(prompts).toEqual([{ agent: 'ceo', prompt: 'can someone look at this?' }]);
    expect(repliesIn(ts)[0]).toMatchObject({ username: 'ceo', text: 'ceo here' });
    expect(h.standIn.inThread(CHANNEL, plain).filter((m) => m.ts !== plain)).toEqual([]);
  });

  it('P12: the app’s mention alone answers with a short help naming the agents here; nobody starts', async () => {
    const ts = await say(`<@${BOT_USER}>`);
    const posts = () => h.standIn.inThread(CHANNEL, ts).filter((m) => m.ts !== ts);
    await waitFor(async () => posts().length === 1);
    const [help] = posts();
    expect(help?.text).toMatch(/Mention one to start it/);
    expect(help?.text).toMatch(/Agents here: .*@ceo/);
    expect(await h.runs()).toEqual([]);
  });

  it('P12: an agent mentioned beside the app keeps its meaning', async () => {
    const ts = await say(`<@${BOT_USER}> @engineer fix the login bug`);
    await waitFor(async () => repliesIn(ts).length === 1);
    expect(prompts).toEqual([{ agent: 'engineer', prompt: 'fix the login bug' }]);
  });

  it('P7, T3: the reply’s call is recorded as sent in the commit that ends its run', async () => {
    const ts = await say(`<@${BOT_USER}> @engineer ping`);
    await waitFor(async () => (await h.runs()).some((run) => run.status === 'succeeded'));
    // Read the moment the run's end is seen: the mark went in with it, not after it.
    const rows = await h.read((tx) =>
      (tx as unknown as { query: <R>(sql: string) => Promise<R[]> }).query<{ status: string; text: string }>(
        "SELECT status, payload->>'text' AS text FROM outbox WHERE kind = 'chat.postMessage' ORDER BY seq",
      ),
    );
    expect(rows.filter((row) => row.text === 'engineer here')).toEqual([
      { status: 'sent', text: 'engineer here' },
    ]);
    expect(repliesIn(ts)).toHaveLength(1);
  });
});
