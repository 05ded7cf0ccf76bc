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
});
