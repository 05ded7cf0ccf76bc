import fc from 'fast-check';
import {
  MAX_AGENTS_PER_REPLY,
  MAX_WAKE_DEPTH,
  type MentionedAgent,
  planWakes,
  type TurnOutcome,
} from '../../../src/core/wake';
import { FakePairRateLimiter } from './fake-pair-rate-limiter';

const universe: MentionedAgent[] = Array.from({ length: 7 }, (_, i) => ({
  agentId: `a${i}`,
  name: `agent${i}`,
}));

interface Scenario {
  chain: MentionedAgent[];
  depth: number;
  named: MentionedAgent[];
  ambiguous: string[];
  outcome: TurnOutcome;
  denied: string[];
}

const scenario: fc.Arbitrary<Scenario> = fc.record({
  chain: fc.shuffledSubarray(universe, { minLength: 1, maxLength: 4 }),
  depth: fc.integer({ min: 1, max: 5 }),
  named: fc.array(fc.constantFrom(...universe), { maxLength: 8 }),
  ambiguous: fc.array(fc.constantFrom('sam', 'Sam', 'dup', 'twin', ''), { maxLength: 3 }),
  // A clean end is the interesting case: weigh it double.
  outcome: fc.constantFrom<TurnOutcome>('succeeded', 'succeeded', 'failed', 'interrupted'),
  denied: fc.subarray(universe.map((agent) => agent.agentId)),
});

async function plan(s: Scenario) {
  // The replying agent is the last of its chain (M20).
  const replier = s.chain.at(-1);
  if (!replier) throw new Error('a chain has at least one agent');
  const limiter = FakePairRateLimiter.denying(...s.denied);
  const result = await planWakes(
    {
      outcome: s.outcome,
      replier,
      chain: s.chain.map((agent) => agent.agentId),
      depth: s.depth,
      mentions: { agents: s.named, ambiguous: s.ambiguous },
      workspaceId: 'w1',
      now: new Date(0),
    },
    limiter,
  );
  return { result, limiter, replier };
}

describe('planWakes properties', () => {
  it('M19, M20: never more than three woken, never anyone in the chain, never deeper than 3', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async (s) => {
        const { result } = await plan(s);
        const chainIds = s.chain.map((agent) => agent.agentId);

        expect(result.wakes.length).toBeLessThanOrEqual(MAX_AGENTS_PER_REPLY);
        for (const wake of result.wakes) {
          expect(chainIds).not.toContain(wake.agentId);
          expect(wake.depth).toBeLessThanOrEqual(MAX_WAKE_DEPTH);
          expect(wake.depth).toBe(s.depth + 1);
          expect(wake.chain).toEqual([...chainIds, wake.agentId]);
        }
      }),
    );
  });

  it('M14, M21, M22: every mention is woken, rejected, or dropped (self, failed turn); never two of these', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async (s) => {
        const { result, replier } = await plan(s);
        const woken = result.wakes.map((wake) => wake.agentId);
        const rejected = result.rejections.flatMap((rejection) => rejection.agentIds);

        // No agent is named twice in the outcome.
        expect(new Set([...woken, ...rejected]).size).toBe(woken.length + rejected.length);

        const others = new Set(s.named.map((agent) => agent.agentId).filter((id) => id !== replier.agentId));
        const ambiguous = new Set(
          s.ambiguous.map((name) => name.toLowerCase()).filter((name) => name !== ''),
        );
        const reportedAmbiguous = result.rejections.filter((r) => r.reason === 'ambiguous');

        if (s.outcome !== 'succeeded') {
          expect(result).toEqual({ wakes: [], rejections: [] });
          return;
        }
        expect(new Set([...woken, ...rejected])).toEqual(others);
        expect(reportedAmbiguous).toHaveLength(ambiguous.size);
        expect(result.rejections.filter((r) => r.reason === 'too_many').length).toBe(
          others.size > MAX_AGENTS_PER_REPLY ? 1 : 0,
        );
      }),
    );
  });

  it('M20: the rate limiter is asked only for wakes that passed every other check', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async (s) => {
        const { result, limiter } = await plan(s);
        const asked = limiter.calls.map((call) => call.toAgentId);
        const rated = result.rejections.filter((r) => r.reason === 'rate').flatMap((r) => r.agentIds);

        expect(new Set(asked)).toEqual(new Set([...result.wakes.map((wake) => wake.agentId), ...rated]));
        expect(asked.length).toBe(new Set(asked).size);
      }),
    );
  });
});
