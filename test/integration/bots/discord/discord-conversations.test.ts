import { type DiscordHarness, openDiscordHarness, visibleText } from '../../../support/discord-harness';
import { waitFor } from '../../../support/engine-harness';
import { replies, ScriptedRunner } from '../../../support/scripted-runner';

describe('Discord front end: conversations (real discord.js against the Discord stand-in)', () => {
  let h: DiscordHarness;
  const runner = new ScriptedRunner({
    engineer: replies('The login bug is fixed.'),
    qa: replies('Tests pass.'),
  });

  beforeEach(async () => {
    h = await openDiscordHarness({ runner });
  });
  afterEach(async () => {
    await h.close();
    expect(h.standIn.refusals).toEqual([]);
  });

  it('P2: a mention starts a thread from the message; the agent answers in it through the channel webhook, as itself', async () => {
    const asked = h.standIn.say(h.people.dana, h.channel, '@engineer fix the login bug');
    const reply = await h.waitInThread(asked, (m) => m.content === 'The login bug is fixed.');
    expect(reply.author.username).toBe('engineer');
    expect(reply.webhook_id).toBeDefined();
    const thread = h.standIn.channels.get(asked.id);
    expect(thread).toMatchObject({ type: 11, parent_id: h.channel, name: '@engineer fix the login bug' });
    // P9: the status card is an embed above the reply, edited to done.
    const card = await h.waitInThread(asked, (m) => m.embeds[0]?.title === 'engineer · done');
    expect(h.thread(asked).indexOf(card)).toBeLessThan(h.thread(asked).indexOf(reply));
    // One webhook for the channel, created once.
    await h.settled(1);
    expect(h.standIn.calls.filter((c) => c.method === 'POST' && /\/webhooks$/.test(c.path))).toHaveLength(1);
  });

  it('P2: a channel webhook deleted by someone is replaced, posting goes on, and no webhook token reaches the log', async () => {
    const asked = h.standIn.say(h.people.dana, h.channel, '@engineer fix the login bug');
    await h.waitInThread(asked, (m) => m.content === 'The login bug is fixed.');
    await h.settled(1);
    const [old] = [...h.standIn.webhooks.values()];
    h.standIn.webhooks.clear();
    h.standIn.say(h.people.dana, asked.id, '@qa and check it');
    await h.waitInThread(asked, (m) => m.content === 'Tests pass.');
    const [replacement] = [...h.standIn.webhooks.values()];
    expect(replacement?.id).not.toBe(old?.id);
    const refused = h.standIn.refusals;
    expect(refused.map((c) => (c.error as { code: number }).code)).toEqual([10015]);
    h.standIn.calls.splice(0, h.standIn.calls.length);
    expect(h.log()).toContain('webhook was deleted');
    for (const token of [old?.token, replacement?.token]) expect(h.log()).not.toContain(token);
  });

  it('P10: the webhook’s own posts come back over the gateway and start nothing', async () => {
    const asked = h.standIn.say(h.people.dana, h.channel, '@engineer fix the login bug');
    await h.waitInThread(asked, (m) => m.content === 'The login bug is fixed.');
    await h.settled(1);
    await h.frontEnd.idle();
    expect(await h.runs()).toHaveLength(1);
  });

  it('two agents answer in parallel in one thread, each under its own name', async () => {
    const asked = h.standIn.say(h.people.dana, h.channel, '@engineer @qa check the release');
    await h.waitInThread(asked, (m) => m.content === 'Tests pass.');
    await h.waitInThread(asked, (m) => m.content === 'The login bug is fixed.');
    await h.settled(2);
    const authors = h
      .thread(asked)
      .filter((m) => m.embeds.length === 0)
      .map((m) => m.author.username);
    expect(authors.sort()).toEqual(['engineer', 'qa']);
  });

  it('P3, M3: a follow-up in the thread without a mention goes to the agent that spoke last', async () => {
    const asked = h.standIn.say(h.people.dana, h.channel, '@engineer fix the login bug');
    await h.waitInThread(asked, (m) => m.content === 'The login bug is fixed.');
    await h.settled(1);
    h.standIn.say(h.people.mo, asked.id, 'and add a test please');
    const runs = await h.settled(2);
    const prompts = runner.requests.map((r) => JSON.stringify(r)).join('\n');
    expect(prompts).toContain('and add a test please');
    expect(new Set(runs.map((r) => r.agentId)).size).toBe(1);
  });

  it('P8: an unknown user is told in the thread how to link, and nothing runs', async () => {
    const asked = h.standIn.say(h.people.stranger, h.channel, '@engineer do something');
    const told = await h.waitInThread(asked, (m) => m.content.includes('link-account'));
    expect(told.author.username).toBe('Summon');
    expect(await h.runs()).toEqual([]);
  });

  it('P1: messages in a channel that is not bound start nothing and get no answer', async () => {
    h.standIn.say(h.people.dana, h.unbound, '@engineer fix the login bug');
    await waitFor(async () => h.standIn.calls.length > 0);
    await new Promise((resolve) => setTimeout(resolve, 200));
    await h.frontEnd.idle();
    expect(await h.runs()).toEqual([]);
    expect(h.standIn.messagesIn(h.unbound)).toHaveLength(1);
  });

  it('P8: a direct message from someone who is no member starts nothing; they are told, once, how to link', async () => {
    const dm = h.standIn.dmChannelWith(h.people.stranger.id);
    h.standIn.say(h.people.stranger, dm, '@engineer fix the login bug');
    await waitFor(async () => h.standIn.messagesIn(dm).length === 2);
    h.standIn.say(h.people.stranger, dm, 'hello?');
    await waitFor(async () => h.standIn.messagesIn(dm).length === 3);
    await new Promise((resolve) => setTimeout(resolve, 200));
    await h.frontEnd.idle();
    const answers = h.standIn.messagesIn(dm).filter((m) => m.author.id === h.standIn.bot.id);
    expect(answers.map((m) => m.content)).toEqual([expect.stringContaining('/summon link-account')]);
    expect(await h.runs()).toEqual([]);
  });

  it('P6: the same MESSAGE_CREATE delivered twice runs once', async () => {
    const asked = h.standIn.say(h.people.dana, h.channel, '@engineer fix the login bug');
    h.standIn.redeliver(asked, h.people.dana);
    await h.waitInThread(asked, (m) => m.content === 'The login bug is fixed.');
    await h.frontEnd.idle();
    await h.settled(1);
    expect(h.thread(asked).filter((m) => m.content === 'The login bug is fixed.')).toHaveLength(1);
  });

  it('shows what people see: the card text is readable', async () => {
    const asked = h.standIn.say(h.people.dana, h.channel, '@engineer fix the login bug');
    const card = await h.waitInThread(asked, (m) => m.embeds[0]?.title === 'engineer · done');
    expect(visibleText(card)).toContain('engineer · done');
  });
});
