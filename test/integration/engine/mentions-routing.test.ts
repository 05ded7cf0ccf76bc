import {
  describeEntry,
  ENGINE_SETUPS,
  type EngineHarness,
  held,
  openEngineHarness,
  waitFor,
} from '../../support/engine-harness';
import { replies, ScriptedRunner } from '../../support/scripted-runner';

describe.each(ENGINE_SETUPS)('routing a person’s message on $name', (setup) => {
  let h: EngineHarness;
  let runner: ScriptedRunner;

  beforeEach(async () => {
    runner = new ScriptedRunner({}, (request) => [{ type: 'final', text: `${request.agent.name} here` }]);
    h = await openEngineHarness(setup, runner);
  });
  afterEach(() => h.close());

  it('M1, M7: starts the mentioned agent with the mention stripped; the others only see the message', async () => {
    await h.type('@engineer fix the login bug');
    const [run] = await h.settled(1);
    expect(run?.agentId).toBe(await h.agentId('engineer'));
    expect(runner.requests).toHaveLength(1);
    expect(runner.requests[0]?.prompt).toContain('fix the login bug');
    expect(runner.requests[0]?.prompt).not.toContain('@engineer');
    await waitFor(async () => h.thread(1).some((e) => describeEntry(e) === 'engineer: engineer here'));
    // P2, P9: the reply sits in the thread under the agent's name, after its finished status card.
    expect(h.thread(1).map(describeEntry)).toEqual([
      'you: @engineer fix the login bug',
      'status(done) engineer',
      'engineer: engineer here',
    ]);
  });

  it('M4, M5: a prefix reaches the earliest-created match, and the sender is told', async () => {
    const architect = await h.read((tx) => tx.agents.findByName(h.local.workspace.id, 'architect'));
    if (architect === null) throw new Error('seeded architect missing');
    await h.read((tx) =>
      tx.agents.insert(h.local.workspace.id, {
        ...architect,
        name: 'archivist',
        title: 'Archivist',
        reportsToId: null,
      }),
    );
    await h.type('@arch sketch the design');
    const [run] = await h.settled(1);
    expect(run?.agentId).toBe(await h.agentId('architect'));
    expect(h.screen()).toMatch(/\(only you\).*@arch matched architect; also matched archivist/);
  });

  it('M10, M11, M12: a person mentioned is kept for notification and starts nobody; agents are matched first', async () => {
    const ws = h.local.workspace.id;
    const dana = await h.read((tx) =>
      tx.members.insert(ws, { nickname: 'dana', role: 'approver', slackUserId: null, discordUserId: null }),
    );
    await h.read((tx) =>
      tx.members.insert(ws, { nickname: 'qarl', role: 'member', slackUserId: null, discordUserId: null }),
    );
    await h.type('@dan please look at this, and @qa run the suite');
    const [run] = await h.settled(1);
    expect(run?.agentId).toBe(await h.agentId('qa')); // M12: `@qa` is the agent, not member qarl
    const stored = await h.read(
      async (tx) => (await tx.messages.listRecent(run?.conversationId ?? '', 10))[0],
    );
    expect(stored?.mentions).toEqual({
      agents: [{ agentId: await h.agentId('qa'), name: 'qa' }],
      members: [{ memberId: dana.id, nickname: 'dana' }],
    });
  });

  it('M13: the started agent is told who summoned it and who else is in the space', async () => {
    await h.type('@engineer fix the login bug');
    await h.settled(1);
    const system = runner.requests[0]?.system ?? '';
    expect(system).toContain('## Summons');
    expect(system).toContain('You were summoned by you (person).');
    for (const other of ['ceo', 'qa', 'architect', 'librarian']) expect(system).toContain(other);
  });

  it('M7: a message made only of mentions starts nobody', async () => {
    await h.type('@qa');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await h.runs()).toEqual([]);
  });

  it('M8: two mentioned agents start in parallel, both with the full message', async () => {
    const qa = held('tests written');
    const architect = held('reviewed');
    runner = new ScriptedRunner({ qa: qa.script, architect: architect.script });
    await h.close();
    h = await openEngineHarness(setup, runner);

    await h.type('@qa write tests for it. @architect review the design.');
    await Promise.all([qa.started, architect.started]); // both are working at once
    qa.release();
    architect.release();
    await h.settled(2);
    for (const request of runner.requests) {
      expect(request.prompt).toContain('write tests for it. review the design.');
    }
  });

  it('M2: a mentioned agent that is not a participant joins the space', async () => {
    const participants = () => h.read((tx) => tx.spaces.listParticipants(h.local.space.id));
    const before = await participants();
    const librarian = await h.agentId('librarian');
    await h.read((tx) =>
      tx.spaces.setParticipants(
        h.local.space.id,
        before.filter((p) => p.kind !== 'agent' || p.agentId !== librarian),
      ),
    );
    await h.type('@librarian find the ADR');
    await h.settled(1);
    expect(await participants()).toContainEqual({ kind: 'agent', agentId: librarian });
  });

  it('M3: a follow-up without a mention goes to the agent that spoke last', async () => {
    await h.type('@qa check the build');
    await h.settled(1);
    await h.type('and the flaky test too');
    const all = await h.settled(2);
    const qa = await h.agentId('qa');
    expect(all.map((r) => r.agentId)).toEqual([qa, qa]);
  });

  it('M3 in a dedicated space: a top-level message without a mention goes to the top-level agent', async () => {
    await h.type('what should we do today?');
    const [run] = await h.settled(1);
    expect(run?.agentId).toBe(await h.agentId('ceo'));
  });

  it('P6: the same delivery twice starts one run', async () => {
    const message = {
      platform: 'terminal' as const,
      eventId: 'evt-1',
      workspace: { slug: 'default' },
      channelId: 'general',
      thread: 'terminal:general:1',
      topLevel: true,
      messageRef: 'p1',
      senderId: 'you',
      text: '@qa hello',
      receivedAt: new Date(),
    };
    const outcomes = await Promise.all([h.engine.receive(message), h.engine.receive(message)]);
    expect(outcomes.map((o) => o.kind).sort()).toEqual(['accepted', 'duplicate']);
    await h.settled(1);
    expect(await h.engine.receive(message)).toEqual({ kind: 'duplicate' });
  });

  it('P8: an unknown sender is refused and told how to link; nothing runs', async () => {
    const outcome = await h.engine.receive({
      platform: 'terminal',
      eventId: 'evt-stranger',
      workspace: { slug: 'default' },
      channelId: 'general',
      thread: 'terminal:general:7',
      topLevel: true,
      messageRef: 'p9',
      senderId: 'stranger',
      text: '@qa run everything',
      receivedAt: new Date(),
    });
    expect(outcome).toMatchObject({
      kind: 'refused',
      reason: expect.stringContaining('/summon link-account'),
    });
    expect(await h.runs()).toEqual([]);
  });

  it('a failing runner fails the run and says so in the thread', async () => {
    runner = new ScriptedRunner({ qa: () => [{ type: 'error', message: 'model overloaded' }] });
    await h.close();
    h = await openEngineHarness(setup, runner);
    await h.type('@qa run the tests');
    const [run] = await h.settled(1);
    expect(run).toMatchObject({ status: 'failed', liveness: 'failed', error: 'model overloaded' });
    await waitFor(async () =>
      h.thread(1).some((e) => describeEntry(e) === "system: qa's turn failed: model overloaded"),
    );
  });

  it('an agent runs one turn at a time per conversation; the next waits in order', async () => {
    const first = held('first done');
    let calls = 0;
    runner = new ScriptedRunner({
      qa: (request) => {
        calls += 1;
        return calls === 1 ? first.script(request) : replies('second done')(request);
      },
    });
    await h.close();
    h = await openEngineHarness(setup, runner);
    await h.type('@qa first');
    await first.started;
    await h.type('@qa second');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(runner.requests).toHaveLength(1); // the second waits for the first
    first.release();
    const all = await h.settled(2);
    expect(all.map((r) => r.status)).toEqual(['succeeded', 'succeeded']);
    expect(runner.requests.map((r) => r.prompt.includes('second'))).toEqual([false, true]);
  });
});
