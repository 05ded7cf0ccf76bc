import { type PlanWakesInput, planWakes } from '../../../src/core/wake';
import { architect, ceo, engineer, librarian, nameOf, qa } from './agents';
import { FakePairRateLimiter } from './fake-pair-rate-limiter';

const now = new Date('2026-11-29T12:00:00Z');

/** ceo was summoned by a person (depth 1) and replies. */
function input(overrides: Partial<PlanWakesInput> = {}): PlanWakesInput {
  return {
    outcome: 'succeeded',
    replier: ceo,
    chain: [ceo.agentId],
    depth: 1,
    mentions: { agents: [], ambiguous: [] },
    workspaceId: 'w1',
    now,
    agentName: nameOf,
    ...overrides,
  };
}

describe('planWakes', () => {
  it('M14: a clean turn wakes the agents it names, one hop deeper, in the same chain', async () => {
    const limiter = new FakePairRateLimiter();
    const plan = await planWakes(input({ mentions: { agents: [engineer, qa], ambiguous: [] } }), limiter);

    expect(plan.rejections).toEqual([]);
    expect(plan.wakes).toEqual([
      { agentId: 'a-engineer', name: 'engineer', depth: 2, chain: ['a-ceo', 'a-engineer'] },
      { agentId: 'a-qa', name: 'qa', depth: 2, chain: ['a-ceo', 'a-qa'] },
    ]);
    expect(limiter.calls).toEqual([
      { workspaceId: 'w1', fromAgentId: 'a-ceo', toAgentId: 'a-engineer', now },
      { workspaceId: 'w1', fromAgentId: 'a-ceo', toAgentId: 'a-qa', now },
    ]);
  });

  it.each(['failed', 'interrupted'] as const)(
    'M14: a %s turn wakes nobody and posts nothing, not even for rejected mentions',
    async (outcome) => {
      const limiter = new FakePairRateLimiter();
      const mentions = { agents: [engineer, qa, architect, librarian], ambiguous: ['sam'] };
      const plan = await planWakes(input({ outcome, mentions }), limiter);

      expect(plan).toEqual({ wakes: [], rejections: [] });
      expect(limiter.calls).toEqual([]);
    },
  );

  it('M15: an ambiguous name reaches nobody and is reported once', async () => {
    const plan = await planWakes(
      input({ mentions: { agents: [qa], ambiguous: ['sam', 'Sam', ' '] } }),
      new FakePairRateLimiter(),
    );

    expect(plan.wakes.map((wake) => wake.name)).toEqual(['qa']);
    expect(plan.rejections).toEqual([
      {
        mention: '@sam',
        reason: 'ambiguous',
        message: '@sam was not woken: more than one agent is named "sam", so the mention reaches nobody.',
        agentIds: [],
      },
    ]);
  });

  it('M19: a reply that names more than three distinct agents wakes none, with one message', async () => {
    const limiter = new FakePairRateLimiter();
    const mentions = { agents: [engineer, qa, architect, librarian], ambiguous: [] };
    const plan = await planWakes(input({ mentions }), limiter);

    expect(plan.wakes).toEqual([]);
    expect(plan.rejections).toEqual([
      {
        mention: '@engineer, @qa, @architect, @librarian',
        reason: 'too_many',
        message:
          '@engineer, @qa, @architect and @librarian were not woken: a reply that names more than three ' +
          'agents (this one names 4) is read as a list, not a summons. Mention at most three agents to wake them.',
        agentIds: ['a-engineer', 'a-qa', 'a-architect', 'a-librarian'],
      },
    ]);
    expect(limiter.calls).toEqual([]);
  });

  it('M19: exactly three distinct agents is a summons; a name repeated counts once', async () => {
    const mentions = { agents: [engineer, qa, engineer, architect, qa], ambiguous: [] };
    const plan = await planWakes(input({ mentions }), new FakePairRateLimiter());

    expect(plan.wakes.map((wake) => wake.name)).toEqual(['engineer', 'qa', 'architect']);
    expect(plan.rejections).toEqual([]);
  });

  it('M19: an ambiguous name is not an agent named, but is still reported beside the list', async () => {
    const mentions = { agents: [engineer, qa, architect, librarian], ambiguous: ['sam'] };
    const plan = await planWakes(input({ mentions }), new FakePairRateLimiter());

    expect(plan.rejections.map((r) => r.reason)).toEqual(['too_many', 'ambiguous']);

    const three = await planWakes(
      input({ mentions: { agents: [engineer, qa, architect], ambiguous: ['sam'] } }),
      new FakePairRateLimiter(),
    );
    expect(three.wakes).toHaveLength(3);
  });

  it('M20 depth: a run at depth 3 wakes nobody; each mention gets its message', async () => {
    const limiter = new FakePairRateLimiter();
    const plan = await planWakes(
      input({
        replier: architect,
        chain: [ceo.agentId, engineer.agentId, architect.agentId],
        depth: 3,
        mentions: { agents: [qa, librarian], ambiguous: [] },
      }),
      limiter,
    );

    expect(plan.wakes).toEqual([]);
    expect(plan.rejections.map((r) => [r.mention, r.reason])).toEqual([
      ['@qa', 'depth'],
      ['@librarian', 'depth'],
    ]);
    expect(plan.rejections[0]?.message).toBe(
      '@qa was not woken: the wake chain is already 3 deep (ceo → engineer → architect), ' +
        'and agents may wake one another at most 3 deep. A person can mention @qa to start it.',
    );
    expect(limiter.calls).toEqual([]);
  });

  it('M20 depth: a run at depth 2 may still wake, and the woken run is at depth 3', async () => {
    const plan = await planWakes(
      input({
        replier: engineer,
        chain: [ceo.agentId, engineer.agentId],
        depth: 2,
        mentions: { agents: [qa], ambiguous: [] },
      }),
      new FakePairRateLimiter(),
    );

    expect(plan.wakes).toEqual([
      { agentId: 'a-qa', name: 'qa', depth: 3, chain: ['a-ceo', 'a-engineer', 'a-qa'] },
    ]);
  });

  it('M20 cycle: an agent already in the chain is not woken again (no A → B → A)', async () => {
    const limiter = new FakePairRateLimiter();
    const plan = await planWakes(
      input({
        replier: engineer,
        chain: [ceo.agentId, engineer.agentId],
        depth: 2,
        mentions: { agents: [ceo, qa], ambiguous: [] },
      }),
      limiter,
    );

    expect(plan.wakes.map((wake) => wake.name)).toEqual(['qa']);
    expect(plan.rejections).toEqual([
      {
        mention: '@ceo',
        reason: 'cycle',
        message:
          '@ceo was not woken: it is already in this wake chain (ceo → engineer), and an agent is ' +
          'never woken twice by one chain. A person can mention @ceo to start it.',
        agentIds: ['a-ceo'],
      },
    ]);
    // A rejected wake does not use up the pair's budget.
    expect(limiter.calls.map((call) => call.toAgentId)).toEqual(['a-qa']);
  });

  it('M20 cycle: a cycle is reported as such even when the chain is also too deep', async () => {
    const plan = await planWakes(
      input({
        replier: architect,
        chain: [ceo.agentId, engineer.agentId, architect.agentId],
        depth: 3,
        mentions: { agents: [ceo], ambiguous: [] },
      }),
      new FakePairRateLimiter(),
    );

    expect(plan.rejections.map((r) => r.reason)).toEqual(['cycle']);
  });

  it('M20 rate: a pair over its limit is not woken; the limiter is asked per pair', async () => {
    const limiter = FakePairRateLimiter.denying(qa.agentId);
    const plan = await planWakes(
      input({
        replier: architect,
        chain: [ceo.agentId, architect.agentId],
        depth: 2,
        mentions: { agents: [qa, engineer], ambiguous: [] },
        rateLimit: { max: 5, windowMs: 10 * 60 * 1000 },
      }),
      limiter,
    );

    expect(plan.wakes.map((wake) => wake.name)).toEqual(['engineer']);
    expect(plan.rejections).toEqual([
      {
        mention: '@qa',
        reason: 'rate',
        message:
          '@qa was not woken: @architect has already woken @qa 5 times in the last 10 minutes, ' +
          'the most allowed. Try again later, or a person can mention @qa.',
        agentIds: ['a-qa'],
      },
    ]);
    expect(limiter.calls.map((call) => [call.workspaceId, call.fromAgentId, call.toAgentId])).toEqual([
      ['w1', 'a-architect', 'a-qa'],
      ['w1', 'a-architect', 'a-engineer'],
    ]);
  });

  it('M20 rate: without the limit given, the message does not invent numbers', async () => {
    const plan = await planWakes(
      input({ mentions: { agents: [qa], ambiguous: [] } }),
      FakePairRateLimiter.denying(qa.agentId),
    );

    expect(plan.rejections[0]?.message).toBe(
      '@qa was not woken: @ceo has woken @qa too often in the last few minutes. ' +
        'Try again later, or a person can mention @qa.',
    );
  });

  it('M21: every rejected wake yields one message, in mention order, ambiguous names last', async () => {
    const limiter = FakePairRateLimiter.denying(librarian.agentId);
    const plan = await planWakes(
      input({
        replier: engineer,
        chain: [ceo.agentId, engineer.agentId],
        depth: 2,
        mentions: { agents: [ceo, librarian, qa], ambiguous: ['sam'] },
      }),
      limiter,
    );

    expect(plan.wakes.map((wake) => wake.name)).toEqual(['qa']);
    expect(plan.rejections.map((r) => [r.mention, r.reason])).toEqual([
      ['@ceo', 'cycle'],
      ['@librarian', 'rate'],
      ['@sam', 'ambiguous'],
    ]);
    for (const rejection of plan.rejections) {
      expect(rejection.message.startsWith(`${rejection.mention} was not woken: `)).toBe(true);
    }
  });

  it('M21: a reply whose names all reached nobody posts nothing', async () => {
    // Unresolved names never reach the planner: the mentions carry only agents and ambiguous names.
    const plan = await planWakes(input(), new FakePairRateLimiter());

    expect(plan).toEqual({ wakes: [], rejections: [] });
  });

  it('M21: chain agents without a known name are shown by id', async () => {
    const plan = await planWakes(
      input({
        replier: architect,
        chain: ['a-gone', engineer.agentId, architect.agentId],
        depth: 3,
        mentions: { agents: [qa], ambiguous: [] },
        agentName: () => undefined,
      }),
      new FakePairRateLimiter(),
    );

    expect(plan.rejections[0]?.message).toContain('(a-gone → a-engineer → architect)');
  });

  it('M22: a self-mention is ignored: not woken, not counted, not reported as a cycle', async () => {
    const limiter = new FakePairRateLimiter();
    const plan = await planWakes(
      input({ mentions: { agents: [ceo, engineer, qa, ceo, architect], ambiguous: [] } }),
      limiter,
    );

    expect(plan.wakes.map((wake) => wake.name)).toEqual(['engineer', 'qa', 'architect']);
    expect(plan.rejections).toEqual([]);
    expect(limiter.calls.map((call) => call.toAgentId)).not.toContain('a-ceo');
  });

  it('M20: a chain that does not end with the replier is completed with it', async () => {
    const plan = await planWakes(
      input({ replier: engineer, chain: [ceo.agentId], depth: 2, mentions: { agents: [qa], ambiguous: [] } }),
      new FakePairRateLimiter(),
    );

    expect(plan.wakes[0]?.chain).toEqual(['a-ceo', 'a-engineer', 'a-qa']);
  });
});
