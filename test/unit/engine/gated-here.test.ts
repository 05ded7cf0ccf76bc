import { gatedHere } from '../../../src/core/engine/tool-kit/turn-tool-kit';

const sandboxed = { gatewayGatesPush: true, proxyGatesNetwork: true };
const bare = { gatewayGatesPush: false, proxyGatesNetwork: false };

describe('which actions a call is decided on by the tool guard', () => {
  it('X2: with the egress proxy, a command’s network is left to the proxy', () => {
    expect(gatedHere(['network'], sandboxed, { command: 'curl https://example.com' })).toEqual([]);
    expect(gatedHere(['network'], bare, { command: 'curl https://example.com' })).toEqual(['network']);
  });

  it('N13, G1: a call to another relay is Summon’s own network, decided here even with the proxy', () => {
    expect(gatedHere(['network'], sandboxed, { agent: 'qa@build-box', text: 'hi' })).toEqual(['network']);
    expect(gatedHere(['network'], sandboxed, { relay: 'build-box' })).toEqual(['network']);
  });

  it('G5: a push to a named remote is left to the gateway; to a URL it is decided here', () => {
    expect(gatedHere(['push_to_remote'], sandboxed, { command: 'git push origin main' })).toEqual([]);
    expect(
      gatedHere(['push_to_remote'], sandboxed, { command: 'git push https://example.com/r.git main' }),
    ).toEqual(['push_to_remote']);
  });
});
