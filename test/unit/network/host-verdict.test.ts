import type { GuardrailDecision } from '../../../src/core/model/guardrail';
import type { HostVerdict } from '../../../src/core/model/host-reach';
import { hostVerdict, NO_DOMAINS_SENTENCE, runReach } from '../../../src/core/network/host-verdict';

const REASON = 'network is denied by the workspace rule';

describe('X2, G1: the decision table for one host', () => {
  it.each<[GuardrailDecision, boolean, HostVerdict['kind']]>([
    ['allow', true, 'pass'],
    ['allow', false, 'refuse'],
    ['ask', true, 'ask'],
    ['ask', false, 'refuse'],
    ['deny', true, 'refuse'],
    ['deny', false, 'refuse'],
  ])('X2: decision %s, listed %s → %s', (decision, listed, kind) => {
    expect(hostVerdict({ host: 'api.example.com', listed, decision, reason: REASON }).kind).toBe(kind);
  });

  it('X2: a host outside the list is refused with a sentence naming it and saying how to allow it', () => {
    const verdict = hostVerdict({ host: 'api.other.io', listed: false, decision: 'allow', reason: REASON });
    expect(verdict).toEqual({ kind: 'refuse', reason: expect.stringContaining('api.other.io') });
    const { reason } = verdict as { reason: string };
    expect(reason).toContain('sandbox.allowedDomains');
    expect(reason).toContain('"*.other.io"');
  });

  it('X2: deny refuses with the guardrail explanation, not the allow-list advice', () => {
    const verdict = hostVerdict({ host: 'api.example.com', listed: true, decision: 'deny', reason: REASON });
    expect(verdict).toEqual({ kind: 'refuse', reason: `Refused: ${REASON}` });
  });
});

describe('X2: whether a run reaches any host at all (no proxy, no forward when not)', () => {
  it('X2: deny reaches nothing, with the rule’s explanation', () => {
    expect(runReach({ decision: 'deny', reason: REASON, allowedDomains: ['api.example.com'] })).toEqual({
      reachable: false,
      reason: `Refused: ${REASON}`,
    });
  });

  it.each<GuardrailDecision>(['allow', 'ask'])(
    'X2: %s with no allowed domains reaches nothing, saying how to list one',
    (decision) => {
      expect(runReach({ decision, reason: REASON, allowedDomains: [] })).toEqual({
        reachable: false,
        reason: NO_DOMAINS_SENTENCE,
      });
      expect(NO_DOMAINS_SENTENCE).toContain('sandbox.allowedDomains');
    },
  );

  it.each<GuardrailDecision>(['allow', 'ask'])('X2: %s with a listed domain may reach it', (decision) => {
    expect(runReach({ decision, reason: REASON, allowedDomains: ['api.example.com'] })).toEqual({
      reachable: true,
    });
  });
});
