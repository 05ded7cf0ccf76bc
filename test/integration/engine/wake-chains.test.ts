import {
  describeEntry,
  ENGINE_SETUPS,
  type EngineHarness,
  held,
  openEngineHarness,
  waitFor,
} from '../../support/engine-harness';
import { type Script, ScriptedRunner } from '../../support/scripted-runner';

const say =
  (text: string): Script =>
  () => [{ type: 'final', text }];

describe.each(ENGINE_SETUPS)('wake chains and notes on $name', (setup) => {
  let h: EngineHarness;
  const open = async (scripts: Record<string, Script>) => {
    h = await openEngineHarness(setup, new ScriptedRunner(scripts));
    return h;
  };
  afterEach(() => h.close());

  it('M14, N1, N9: a clean reply wakes the named agent with a note that folds once it answered', async () => {
    const qa = held('all tests pass');
    const runner = new ScriptedRunner({
      engineer: say('Fixed it. @qa please verify the login flow.'),
      qa: qa.script,
    });
    h = await openEngineHarness(setup, runner);
    await h.type('@engineer fix the login bug');
    await qa.started;

    // N9: while qa works, its note is open.
    await waitFor(async () =>
      h.thread(1).some((e) => describeEntry(e).startsWith('note(open) engineer: note from this relay')),
    );
    const qaRun = (await h.runs()).find((r) => r.agentId !== undefined && r.depth === 2);
    expect(qaRun).toMatchObject({
      depth: 2,
      startedByAgentId: await h.agentId('engineer'),
      wakeChain: [await h.agentId('engineer'), await h.agentId('qa')],
    });
    // M14: the woken agent's prompt is the mentioning turn, with the N12 header.
    const qaRequest = runner.requests.find((r) => r.agent.name === 'qa');
    expect(qaRequest?.prompt).toContain('Remote prompt from an agent');
    expect(qaRequest?.prompt).toContain('Fixed it. @qa please verify the login flow.');

    qa.release();
    await h.settled(2);
    // N9: answered → folded; N6: the reply itself is never folded.
    await waitFor(async () => h.thread(1).some((e) => describeEntry(e) === 'qa: all tests pass'));
    // The note folds itself once its turn has answered (just after the reply is posted).
    const notes = await waitFor(async () => {
      const rows = h
        .thread(1)
        .map(describeEntry)
        .filter((e) => e.startsWith('note('));
      return rows.every((row) => row.startsWith('note(folded)')) ? rows : null;
    });
    expect(notes).toEqual([
      expect.stringMatching(
        /^note\(folded\) engineer: note from this relay · fix the login bug · answered below/,
      ),
    ]);
  });

  it('N7, N9: a note a person opened stays open after its turn answered', async () => {
    const qa = held('verified');
    h = await openEngineHarness(setup, new ScriptedRunner({ engineer: say('@qa verify'), qa: qa.script }));
    await h.type('@engineer ship it');
    await qa.started;
    const note = await waitFor(async () => {
      const entry = h.thread(1).find((e) => e.kind === 'posted' && e.message.content.kind === 'note');
      return entry?.kind === 'posted' ? entry : null;
    });
    await h.type('/thread 1');
    await h.type(`/open ${note.cardNumber}`);
    qa.release();
    await h.settled(2);
    await waitFor(async () => h.thread(1).some((e) => describeEntry(e) === 'qa: verified'));
    expect(
      h
        .thread(1)
        .map(describeEntry)
        .filter((e) => e.startsWith('note('))[0],
    ).toMatch(/^note\(open\)/);
  });

  it('N7: a note folded while its card is being posted (before its ref is stored) is drawn folded once it is', async () => {
    const qa = held('verified');
    h = await openEngineHarness(setup, new ScriptedRunner({ engineer: say('@qa verify'), qa: qa.script }));
    // The click arrives between the platform's answer to the post and the stored ref.
    const post = h.platform.post.bind(h.platform);
    const you = { platform: 'terminal' as const, workspace: { slug: 'default' }, senderId: 'you' };
    h.platform.post = async (thread, message) => {
      const ref = await post(thread, message);
      if (message.content.kind === 'note')
        await h.engine.act({ kind: 'note', messageId: message.content.card.messageId, verb: 'fold' }, you);
      return ref;
    };
    // Which redraws of the note came while qa's run was still queued (before anything else runs).
    const update = h.platform.update.bind(h.platform);
    const redrawnWhileQueued: boolean[] = [];
    h.platform.update = async (thread, ref, message) => {
      if (message.content.kind === 'note') {
        const qaRun = (await h.runs()).find((r) => r.depth === 2);
        redrawnWhileQueued.push(qaRun?.status === 'queued' && !message.content.card.open);
      }
      return update(thread, ref, message);
    };
    await h.type('@engineer ship it');
    await qa.started;
    // N9 would show it open while qa works; the person folded it: folded it stays.
    await waitFor(async () => h.thread(1).some((e) => describeEntry(e).startsWith('note(folded) engineer')));
    expect(
      h
        .thread(1)
        .map(describeEntry)
        .filter((e) => e.startsWith('note(')),
    ).toEqual([expect.stringMatching(/^note\(folded\) engineer/)]);
    // Drawn folded by its poster, once its ref was stored: not left to a later redraw.
    expect(redrawnWhileQueued[0]).toBe(true);
    qa.release();
    await h.settled(2);
  });

  it('M20: an agent already in the chain is not woken again, and the thread is told why', async () => {
    await open({ engineer: say('@qa over to you'), qa: say('done, back to @engineer') });
    await h.type('@engineer start');
    await h.settled(2);
    await waitFor(async () =>
      h.thread(1).some((e) => /^system: @engineer was not woken: .*engineer → qa/.test(describeEntry(e))),
    );
    expect(await h.runs()).toHaveLength(2);
  });

  it('M20: the chain stops at depth 3 with a system message', async () => {
    await open({
      ceo: say('@architect design it'),
      architect: say('@engineer build it'),
      engineer: say('@qa test it'),
    });
    await h.type('@ceo plan the release');
    await h.settled(3);
    await waitFor(async () =>
      h.thread(1).some((e) => /^system: @qa was not woken: .*3 deep/.test(describeEntry(e))),
    );
  });

  it('M20: the ordered pair is rate-limited across chains (5 wakes per 10 minutes), with a system message', async () => {
    await open({ engineer: say('@qa check it'), qa: say('checked') });
    for (let i = 1; i <= 6; i++) {
      await h.type('/new');
      await h.type(`@engineer change number ${i}`);
      await h.settled(i === 6 ? 11 : i * 2);
    }
    await waitFor(async () =>
      h.thread(6).some((e) => /^system: @qa was not woken: .*too often/.test(describeEntry(e))),
    );
  });

  it('M19: a reply naming more than three agents wakes none and says so once', async () => {
    await open({ ceo: say('FYI @qa @architect @engineer @librarian') });
    await h.type('@ceo who is on the team?');
    await h.settled(1);
    await waitFor(async () => h.thread(1).some((e) => describeEntry(e).startsWith('system: ')));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await h.runs()).toHaveLength(1);
    expect(
      h
        .thread(1)
        .map(describeEntry)
        .filter((e) => e.startsWith('system: ')),
    ).toHaveLength(1);
  });

  it('M14: a failed turn wakes nobody, even if its text named an agent', async () => {
    await open({
      engineer: () => [
        { type: 'text', delta: '@qa look' },
        { type: 'error', message: 'crashed' },
      ],
    });
    await h.type('@engineer go');
    const runs = await h.settled(1);
    expect(runs).toHaveLength(1);
  });

  it('M16, M22: mentions in code and of itself wake nobody and post nothing', async () => {
    await open({ engineer: say('I am @engineer. Use `@qa` or\n```\n@architect\n```') });
    await h.type('@engineer explain');
    await h.settled(1);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await h.runs()).toHaveLength(1);
    expect(
      h
        .thread(1)
        .map(describeEntry)
        .filter((e) => e.startsWith('system: ')),
    ).toEqual([]);
  });
});
