import { queuedRun } from '../../../src/core/engine/routing/queued-run';

const at = new Date('2026-01-02T03:04:05Z');
const target = {
  workspaceId: 'ws',
  agentId: 'qa',
  conversationId: 'conv',
  triggerMessageId: 'msg',
  createdAt: at,
};
const notStarted = {
  status: 'queued',
  liveness: 'ok',
  startedAt: null,
  finishedAt: null,
  lastEventAt: null,
  error: null,
};

describe('queuedRun', () => {
  it("M20: a person's message starts depth 1, the woken agent alone in the chain", () => {
    expect(queuedRun(target, { by: 'person', memberId: 'dana' })).toEqual({
      workspaceId: 'ws',
      agentId: 'qa',
      conversationId: 'conv',
      triggerMessageId: 'msg',
      ...notStarted,
      wakeChain: ['qa'],
      depth: 1,
      startedByMemberId: 'dana',
      startedByAgentId: null,
      createdAt: at,
    });
  });

  it('M20: an agent hands on the chain and depth it planned, and is named as the starter', () => {
    expect(
      queuedRun(target, { by: 'agent', agentId: 'engineer', wakeChain: ['engineer', 'qa'], depth: 2 }),
    ).toEqual({
      ...target,
      ...notStarted,
      wakeChain: ['engineer', 'qa'],
      depth: 2,
      startedByMemberId: null,
      startedByAgentId: 'engineer',
    });
  });

  it("R3: a paired relay's agent starts it with the chain and depth given, and no local starter", () => {
    expect(queuedRun(target, { by: 'relay', wakeChain: ['qa'], depth: 3 })).toEqual({
      ...target,
      ...notStarted,
      wakeChain: ['qa'],
      depth: 3,
      startedByMemberId: null,
      startedByAgentId: null,
    });
  });

  it('copies the chain it is given, so the run does not share the planner’s array', () => {
    const chain = ['engineer', 'qa'];
    const run = queuedRun(target, { by: 'agent', agentId: 'engineer', wakeChain: chain, depth: 2 });
    chain.push('ceo');
    expect(run.wakeChain).toEqual(['engineer', 'qa']);
  });
});
