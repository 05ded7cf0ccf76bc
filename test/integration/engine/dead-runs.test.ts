import type { Runner } from '../../../src/core/ports/runner';
import {
  describeEntry,
  ENGINE_SETUPS,
  type EngineHarness,
  openEngineHarness,
  waitFor,
} from '../../support/engine-harness';
import { ScriptedRunner } from '../../support/scripted-runner';

describe.each(ENGINE_SETUPS)('A12 dead runs on $name', (setup) => {
  let h: EngineHarness;
  afterEach(() => h.close());

  it('a run left running by a worker that stopped becomes dead, its thread is told, and the lane moves on', async () => {
    h = await openEngineHarness(setup, new ScriptedRunner({}, () => [{ type: 'final', text: 'ok' }]));
    await h.type('@qa first');
    await h.settled(1);
    // What a SIGKILLed worker leaves behind: a run marked running whose heartbeat stopped.
    const qa = await h.agentId('qa');
    const [first] = await h.runs();
    const stale = new Date(Date.now() - 10 * 60_000);
    const orphan = await h.read((tx) =>
      tx.runs.insert({
        workspaceId: h.local.workspace.id,
        agentId: qa,
        conversationId: first?.conversationId ?? '',
        triggerMessageId: null,
        status: 'running',
        liveness: 'ok',
        wakeChain: [qa],
        depth: 1,
        startedByMemberId: h.local.member.id,
        startedByAgentId: null,
        startedAt: stale,
        finishedAt: null,
        lastEventAt: stale,
        error: null,
      }),
    );
    await h.type('/thread 1');
    await h.type('and then?');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await h.runs()).filter((r) => r.status === 'queued')).toHaveLength(1); // blocked behind the orphan

    const { dead: marked } = await h.engine.recover();
    expect(marked).toEqual([orphan.id]);

    const dead = await h.read((tx) => tx.runs.findById(orphan.id));
    expect(dead).toMatchObject({ status: 'failed', liveness: 'dead' });
    await waitFor(async () =>
      h
        .thread(1)
        .some((e) =>
          /^system: qa's turn was interrupted because the worker running it stopped/.test(describeEntry(e)),
        ),
    );
    const all = await h.settled(3);
    expect(all.filter((r) => r.status === 'succeeded')).toHaveLength(2);
  });

  it("T2: a built-in runner's run left running with its card up and no checkpoint starts again from its prompt, on that card", async () => {
    const scripted = new ScriptedRunner({}, () => [{ type: 'final', text: 'ok' }]);
    // A runner that checkpoints its turns (as the built-in loops do) reaches recovery through the port.
    const builtIn: Runner = { checkpoints: true, run: (request) => scripted.run(request) };
    h = await openEngineHarness(setup, builtIn);
    await h.type('@qa first');
    await h.settled(1);
    const qa = await h.agentId('qa');
    const [first] = await h.runs();
    const conversation = await h.read((tx) => tx.conversations.findById(first?.conversationId ?? ''));
    // What a worker killed between its status card's post and its runner's first checkpoint
    // leaves: a run `running`, silent, its card's ref stored, no checkpoint.
    const card = h
      .thread(1)
      .flatMap((e) => (e.kind === 'posted' && e.message.content.kind === 'status' ? [e.message] : []))[0];
    if (card === undefined || conversation?.threadId == null) throw new Error('no status card');
    const cardRef = await h.platform.post(conversation.threadId, card);
    const stale = new Date(Date.now() - 10 * 60_000);
    const orphan = await h.read((tx) =>
      tx.runs.insert({
        workspaceId: h.local.workspace.id,
        agentId: qa,
        conversationId: conversation.id,
        triggerMessageId: null,
        status: 'running',
        liveness: 'ok',
        wakeChain: [qa],
        depth: 1,
        startedByMemberId: h.local.member.id,
        startedByAgentId: null,
        startedAt: stale,
        finishedAt: null,
        lastEventAt: stale,
        error: null,
        statusCardRef: cardRef,
      }),
    );
    const before = h.thread(1).map(describeEntry);

    expect(await h.engine.recover()).toMatchObject({ dead: [], resumed: [orphan.id] });
    const finished = await waitFor(async () => {
      const run = await h.read((tx) => tx.runs.findById(orphan.id));
      return run?.status === 'succeeded' ? run : null;
    });
    expect(finished).toMatchObject({ liveness: 'ok', error: null, statusCardRef: cardRef });
    await waitFor(async () => h.thread(1).length === before.length + 1);
    // No second card, no "mention again": the card it had goes on, and the turn answers once.
    expect(h.thread(1).map(describeEntry)).toEqual([
      'you: @qa first',
      'status(done) qa',
      'qa: ok',
      'status(done) qa',
      'qa: ok',
    ]);
    expect(scripted.requests).toHaveLength(2);
  });

  it('T2, A12: two processes recovering the same silent built-in run at once: one restarts it, neither marks it dead, it answers once', async () => {
    const scripted = new ScriptedRunner({}, () => [{ type: 'final', text: 'ok' }]);
    const builtIn: Runner = { checkpoints: true, run: (request) => scripted.run(request) };
    h = await openEngineHarness(setup, builtIn);
    await h.type('@qa first');
    const [first] = await h.settled(1);
    const qa = await h.agentId('qa');
    // Both started (their start-up recovery found nothing) before the run is left behind.
    const peer = await h.openPeer();
    const stale = new Date(Date.now() - 10 * 60_000);
    const orphan = await h.read((tx) =>
      tx.runs.insert({
        workspaceId: h.local.workspace.id,
        agentId: qa,
        conversationId: first?.conversationId ?? '',
        triggerMessageId: null,
        status: 'running',
        liveness: 'ok',
        wakeChain: [qa],
        depth: 1,
        startedByMemberId: h.local.member.id,
        startedByAgentId: null,
        startedAt: stale,
        finishedAt: null,
        lastEventAt: stale,
        error: null,
      }),
    );

    const [mine, theirs] = await Promise.all([h.engine.recover(), peer.recover()]);
    expect([...mine.dead, ...theirs.dead]).toEqual([]);
    expect([...mine.resumed, ...theirs.resumed]).toEqual([orphan.id]);
    const finished = await waitFor(async () => {
      const run = await h.read((tx) => tx.runs.findById(orphan.id));
      return run?.status === 'succeeded' ? run : null;
    });
    expect(finished).toMatchObject({ liveness: 'ok', error: null });
    await waitFor(async () => h.thread(1).length === 5);
    expect(h.thread(1).map(describeEntry)).toEqual([
      'you: @qa first',
      'status(done) qa',
      'qa: ok',
      'status(done) qa',
      'qa: ok',
    ]);
    expect(scripted.requests).toHaveLength(2);
  });
});
