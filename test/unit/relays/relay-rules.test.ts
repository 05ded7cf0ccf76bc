import { newKeyPair, signRequest, verifyRequest } from '../../../src/adapters/relay-http/relay-signature';
import { loadConfig } from '../../../src/config/config';
import { parseAgentAddress } from '../../../src/core/relays/relay-address';
import { checkRelayChain } from '../../../src/core/relays/relay-chain';
import { levelAllows } from '../../../src/core/relays/relay-level';
import { decodeOffer, encodeOffer } from '../../../src/core/relays/relay-offer';
import { toRemoteNoteOrigin } from '../../../src/core/relays/remote-note-origin';

const fields = {
  method: 'POST',
  path: '/relay/v1/prompts',
  keyId: '3f1c1f5e-1a3b-4c5d-8e9f-0a1b2c3d4e5f',
  timestamp: '1796141235316',
  nonce: 'AAAAAAAAAAAAAAAAAAAAAA',
  body: '{"agent":"qa"}',
};

describe('R1: the request envelope', () => {
  const keys = newKeyPair();
  const signature = signRequest(keys.privateKey, fields);

  it('verifies with the signer’s public key', () => {
    expect(verifyRequest(keys.publicKey, fields, signature)).toBe(true);
  });

  it.each([
    ['method', { method: 'GET' }],
    ['path', { path: '/relay/v1/answer' }],
    ['key id', { keyId: 'another' }],
    ['timestamp', { timestamp: '1796141235317' }],
    ['nonce', { nonce: 'BBBBBBBBBBBBBBBBBBBBBB' }],
    ['body', { body: '{"agent":"ceo"}' }],
  ])('fails when the %s changed', (_field, change) => {
    expect(verifyRequest(keys.publicKey, { ...fields, ...change }, signature)).toBe(false);
  });

  it('fails with another key, a malformed signature or a key that does not parse', () => {
    expect(verifyRequest(newKeyPair().publicKey, fields, signature)).toBe(false);
    expect(verifyRequest(keys.publicKey, fields, 'not-a-signature')).toBe(false);
    expect(verifyRequest('not a key', fields, signature)).toBe(false);
  });
});

describe('R1: the pairing offer', () => {
  it('round-trips, and a cut or foreign text is refused with a sentence', () => {
    const offer = {
      v: 1 as const,
      relay: 'build-box',
      url: 'https://b.example.com',
      offer: 'id',
      secret: 's',
      publicKey: 'k',
    };
    expect(decodeOffer(encodeOffer(offer))).toEqual(offer);
    expect(decodeOffer('hello')).toMatch(/starts with "summon-relay-offer:"/);
    expect(decodeOffer(encodeOffer(offer).slice(0, 40))).toMatch(/does not read|incomplete/);
  });
});

describe('R1: levels', () => {
  it('a level allows what the levels below it allow', () => {
    expect(levelAllows('full', 'prompt')).toBe(true);
    expect(levelAllows('prompt', 'read')).toBe(true);
    expect(levelAllows('prompt', 'full')).toBe(false);
    expect(levelAllows('read', 'prompt')).toBe(false);
  });
});

describe('R2: agent@relay', () => {
  it('reads a relay after the last @, or from the argument, which wins', () => {
    expect(parseAgentAddress('qa@build-box')).toEqual({ agent: 'qa', relay: 'build-box' });
    expect(parseAgentAddress('@qa')).toEqual({ agent: 'qa', relay: null });
    expect(parseAgentAddress('qa', 'build-box')).toEqual({ agent: 'qa', relay: 'build-box' });
    expect(parseAgentAddress('qa@here', 'there')).toEqual({ agent: 'qa', relay: 'there' });
    expect(parseAgentAddress('qa@')).toEqual({ agent: 'qa@', relay: null });
  });
});

describe('R3, M20: the chain across relays', () => {
  it('refuses an agent already in the chain, whatever the case', () => {
    const check = checkRelayChain({
      tool: 'ask_agent',
      chain: ['engineer@relay-a', 'qa@relay-b'],
      depth: 2,
      target: { agent: 'Engineer', relay: 'Relay-A' },
    });
    expect(check).toEqual({
      ok: false,
      reason: expect.stringContaining('already in this chain (engineer@relay-a → qa@relay-b)'),
    });
  });

  it('refuses a fourth hop and passes a third, one deeper', () => {
    expect(
      checkRelayChain({
        tool: 'ask_agent',
        chain: ['a@x', 'b@y', 'c@x'],
        depth: 3,
        target: { agent: 'd', relay: 'y' },
      }),
    ).toEqual({ ok: false, reason: expect.stringContaining('already 3 deep') });
    expect(
      checkRelayChain({
        tool: 'ask_agent',
        chain: ['a@x', 'b@y'],
        depth: 2,
        target: { agent: 'c', relay: 'x' },
      }),
    ).toEqual({ ok: true, chain: ['a@x', 'b@y', 'c@x'], depth: 3 });
  });
});

describe('R2: a stored remote note origin', () => {
  it('is read defensively', () => {
    expect(toRemoteNoteOrigin(null)).toBeNull();
    expect(toRemoteNoteOrigin({ agentName: 'qa' })).toBeNull();
    expect(toRemoteNoteOrigin({ pairingId: 'p', agentName: 'qa', chain: ['a@x', 3], modelId: 7 })).toEqual({
      pairingId: 'p',
      agentName: 'qa',
      modelId: null,
      sessionUrl: null,
      chain: ['a@x'],
    });
  });
});

describe('R1: SUMMON_RELAY_NAME and SUMMON_RELAY_RATE_LIMIT', () => {
  it('a name is one word (it is written agent@relay); a limit is a whole number', () => {
    expect(loadConfig({ SUMMON_RELAY_NAME: 'build-box' }, '/tmp').relayName).toBe('build-box');
    expect(loadConfig({}, '/tmp')).toMatchObject({ relayName: undefined, relayRateLimit: 30 });
    expect(() => loadConfig({ SUMMON_RELAY_NAME: 'build box' }, '/tmp')).toThrow(/one word/);
    expect(() => loadConfig({ SUMMON_RELAY_RATE_LIMIT: '0' }, '/tmp')).toThrow(/SUMMON_RELAY_RATE_LIMIT/);
  });
});
