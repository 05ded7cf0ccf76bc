import { chooseResponders, type RoutingInput } from '../../../src/core/engine/routing/choose-responders';

const base: RoutingInput = {
  mentionedAgentIds: [],
  mentionOnly: false,
  dedicated: true,
  topLevel: false,
  lastAgentId: null,
  ownerAgentId: null,
  participants: [
    { id: 'ceo', reportsToId: null },
    { id: 'qa', reportsToId: 'ceo' },
    { id: 'lead', reportsToId: null },
  ],
};
const route = (patch: Partial<RoutingInput>) => chooseResponders({ ...base, ...patch });

describe('chooseResponders', () => {
  it('M1: starts the mentioned agent', () => {
    expect(route({ mentionedAgentIds: ['qa'] })).toEqual(['qa']);
  });

  it('M8: starts every mentioned agent, each once, in order', () => {
    expect(route({ mentionedAgentIds: ['qa', 'lead', 'qa'] })).toEqual(['qa', 'lead']);
  });

  it('M7: a message made only of mentions starts nobody', () => {
    expect(route({ mentionedAgentIds: ['qa'], mentionOnly: true })).toEqual([]);
  });

  it('P12: the app’s mention at the top level of a shared channel summons the M3 responder', () => {
    const shared = { dedicated: false, topLevel: true };
    expect(route(shared)).toEqual([]);
    expect(route({ ...shared, summonsApp: true })).toEqual(['ceo']);
    expect(route({ ...shared, summonsApp: true, lastAgentId: 'qa' })).toEqual(['qa']);
  });

  it('P12: in a shared thread where no agent spoke, the app’s mention still summons one', () => {
    expect(route({ dedicated: false })).toEqual([]);
    expect(route({ dedicated: false, summonsApp: true })).toEqual(['ceo']);
  });

  it('P12: agents mentioned beside the app keep their meaning', () => {
    expect(route({ summonsApp: true, mentionedAgentIds: ['lead'] })).toEqual(['lead']);
    expect(route({ summonsApp: true, mentionedAgentIds: ['lead'], mentionOnly: true })).toEqual([]);
  });

  it('M3: without a mention, the agent that spoke last answers', () => {
    expect(route({ lastAgentId: 'qa', ownerAgentId: 'lead' })).toEqual(['qa']);
  });

  it('M3: else the conversation owner', () => {
    expect(route({ ownerAgentId: 'lead' })).toEqual(['lead']);
  });

  it('M3: else the first top-level participant', () => {
    expect(route({ participants: [{ id: 'qa', reportsToId: 'ceo' }, ...base.participants] })).toEqual([
      'ceo',
    ]);
  });

  it('M3: in a space with one agent it is always that agent', () => {
    expect(route({ participants: [{ id: 'qa', reportsToId: 'ceo' }], lastAgentId: 'other' })).toEqual(['qa']);
  });

  it('M3: nobody when the space has no agent', () => {
    expect(route({ participants: [] })).toEqual([]);
  });

  it('P3: in a shared channel a top-level message without a mention starts nobody', () => {
    expect(route({ dedicated: false, topLevel: true, lastAgentId: 'qa' })).toEqual([]);
  });

  it('P3: in a shared channel a top-level message with a mention starts the agent', () => {
    expect(route({ dedicated: false, topLevel: true, mentionedAgentIds: ['qa'] })).toEqual(['qa']);
  });

  it('P3: in a shared channel a reply follows M3 only in a thread where an agent has spoken', () => {
    expect(route({ dedicated: false, lastAgentId: 'qa' })).toEqual(['qa']);
    expect(route({ dedicated: false })).toEqual([]);
  });

  it('P3: in a dedicated space a top-level message follows M3', () => {
    expect(route({ topLevel: true })).toEqual(['ceo']);
  });
});
