import { type DiscordHarness, openDiscordHarness, visibleText } from '../../../support/discord-harness';
import { held, waitFor } from '../../../support/engine-harness';
import { replies, ScriptedRunner } from '../../../support/scripted-runner';

describe('Discord front end: /ask, rate limits, restarts', () => {
  let h: DiscordHarness;
  afterEach(async () => {
    await h.close();
    expect(h.standIn.refusals).toEqual([]);
  });

  it('/ask agent:<name> autocompletes the space’s agents and starts a conversation with that agent', async () => {
    h = await openDiscordHarness({ runner: new ScriptedRunner({ engineer: replies('On it.') }) });
    const ask = h.standIn.commands.get(h.standIn.guildId)?.[0];
    expect(ask).toMatchObject({
      name: 'ask',
      options: [{ name: 'agent', autocomplete: true }, { name: 'prompt' }],
    });

    const typing = h.standIn.command(
      h.people.dana,
      h.channel,
      [
        { name: 'agent', value: 'eng', focused: true },
        { name: 'prompt', value: '' },
      ],
      'autocomplete',
    );
    await waitFor(async () => typing.callbacks.length === 1);
    // Names that start with what was typed come first; a title that contains it matches too.
    expect(typing.callbacks[0]).toMatchObject({
      type: 8,
      data: { choices: [{ value: 'engineer', name: 'engineer — Software engineer' }, { value: 'qa' }] },
    });
    const all = h.standIn.command(
      h.people.dana,
      h.channel,
      [{ name: 'agent', value: '', focused: true }],
      'autocomplete',
    );
    await waitFor(async () => all.callbacks.length === 1);
    const values = ((all.callbacks[0]?.data?.choices ?? []) as { value: string }[]).map((c) => c.value);
    expect(values.slice(0, 2).sort()).toEqual(['engineer', 'qa']); // the space's participants first
    expect(values).toEqual(expect.arrayContaining(['ceo', 'architect', 'librarian']));

    const run = h.standIn.command(h.people.dana, h.channel, [
      { name: 'agent', value: 'engineer' },
      { name: 'prompt', value: 'fix the login bug' },
    ]);
    await waitFor(async () => run.original !== null);
    expect(run.callbacks).toMatchObject([{ type: 5 }]); // deferred within Discord's 3 seconds
    const shown = run.original;
    if (shown === null) throw new Error('no answer');
    expect(shown.content).toBe(`<@${h.people.dana.id}> asked: @engineer fix the login bug`);
    expect(shown.pinged.users).toEqual([]);
    const reply = await h.waitInThread(shown.id, (m) => m.content === 'On it.');
    expect(reply.author.username).toBe('engineer');
    await h.settled(1);
  });

  it('/ask in a channel that is not bound is refused, only to the person who asked', async () => {
    h = await openDiscordHarness({ runner: new ScriptedRunner({ engineer: replies('On it.') }) });
    const run = h.standIn.command(h.people.dana, h.unbound, [
      { name: 'agent', value: 'engineer' },
      { name: 'prompt', value: 'fix it' },
    ]);
    await waitFor(async () => run.callbacks.length === 1);
    expect(run.callbacks[0]).toMatchObject({
      type: 4,
      data: { flags: 64, content: expect.stringMatching(/not linked/) },
    });
    expect(await h.runs()).toEqual([]);
  });

  it('P7: a rate-limited post waits for retry_after and is delivered once, in order', async () => {
    const text = ['First part.', 'x'.repeat(1990), 'Second part.'].join('\n');
    h = await openDiscordHarness({ runner: new ScriptedRunner({ engineer: replies(text) }) });
    h.standIn.rateLimitNext(/^POST \/api\/v10\/webhooks\/[0-9]+\/[^/]+$/, 0.3);
    h.standIn.rateLimitNext(/^POST \/api\/v10\/webhooks\/[0-9]+\/[^/]+$/, 0.3);
    const asked = h.standIn.say(h.people.dana, h.channel, '@engineer go');
    await h.waitInThread(asked, (m) => m.content.endsWith('Second part.'));
    await h.settled(1);
    const posts = h.standIn.calls.filter(
      (c) => c.method === 'POST' && /^\/api\/v10\/webhooks\//.test(c.path),
    );
    expect(posts.filter((c) => c.status === 429)).toHaveLength(2);
    const texts = h
      .thread(asked)
      .filter((m) => m.embeds.length === 0)
      .map((m) => m.content);
    expect(texts).toEqual(['First part.', 'x'.repeat(1990), 'Second part.']);
  });

  it('G4: an approval card survives a restart: its button still decides, through the channel’s same webhook', async () => {
    const turn = held('pushed');
    h = await openDiscordHarness({ runner: new ScriptedRunner({ engineer: turn.script }) });
    try {
      const asked = h.standIn.say(h.people.dana, h.channel, '@engineer push the fix');
      const [run] = await waitFor(async () => {
        const runs = await h.runs();
        return runs[0]?.status === 'running' ? runs : null;
      });
      const approval = await h.engine?.requestApproval({
        runId: run?.id ?? '',
        action: 'push_to_remote',
        details: { summary: 'push to acme/api main', lines: [] },
      });
      // The approval card (the status card has a Stop button too, P15).
      const card = await h.waitInThread(
        asked,
        (m) => m.components.length > 0 && (m.embeds[0]?.title ?? '').includes(' asks to '),
      );
      const approve = card.components[0]?.components?.[0]?.custom_id ?? '';

      await h.restart();
      h.standIn.click(h.people.dana, card, approve);
      await waitFor(async () => card.components.length === 0);
      expect(visibleText(card)).toContain('Approved by dana');
      expect(await h.engine?.approvalState(approval?.id ?? '')).toBe('allow');
      // Created once; after the restart the channel's webhook was found again and reused.
      expect(h.standIn.webhooks.size).toBe(1);
      // The turn, resumed by the new process, answers into the thread it already has: its card
      // edits there told the new process the thread exists, so it is not started again (160004).
      turn.release();
      await h.waitInThread(asked, (m) => m.content === 'pushed');
      await h.settled(1);
    } finally {
      turn.release();
    }
  }, 30_000);
});
