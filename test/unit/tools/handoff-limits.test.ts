import fc from 'fast-check';
import { checkHandoff } from '../../../src/core/tools/handoff-limits';
import { MAX_WAKE_DEPTH } from '../../../src/core/wake/wake-limits';

const names: Record<string, string> = { e: 'engineer', a: 'architect', q: 'qa', c: 'ceo' };
const nameOf = (id: string) => names[id] ?? id;

describe('checkHandoff (M20, M23)', () => {
  it('M20: a handoff is one hop deeper, with the target added to the chain', () => {
    expect(
      checkHandoff({ tool: 'delegate_task', chain: ['e'], depth: 1, callerId: 'e', targetId: 'a', nameOf }),
    ).toEqual({ ok: true, chain: ['e', 'a'], depth: 2 });
  });

  it('M20: depth 4 is refused with the sentence the caller is told', () => {
    expect(
      checkHandoff({
        tool: 'delegate_task',
        chain: ['e', 'a', 'q'],
        depth: 3,
        callerId: 'q',
        targetId: 'c',
        nameOf,
      }),
    ).toEqual({
      ok: false,
      reason:
        'delegate_task refused: this chain is already 3 deep (engineer → architect → qa), and agents may hand work to one another at most 3 deep. Do the work yourself, or ask a person to start ceo.',
    });
  });

  it('M20: an agent already in the chain is refused as a cycle, before depth', () => {
    expect(
      checkHandoff({
        tool: 'ask_agent',
        chain: ['e', 'a', 'q'],
        depth: 3,
        callerId: 'q',
        targetId: 'e',
        nameOf,
      }),
    ).toEqual({
      ok: false,
      reason:
        'ask_agent refused: engineer is already in this chain (engineer → architect → qa), and an agent is never handed work twice by one chain. Finish your part and reply; engineer will see it.',
    });
  });

  it('a handoff to oneself is refused', () => {
    const check = checkHandoff({
      tool: 'send_to_agent',
      chain: ['e'],
      depth: 1,
      callerId: 'e',
      targetId: 'e',
      nameOf,
    });
    expect(check).toEqual({
      ok: false,
      reason: 'send_to_agent refused: you cannot hand work to yourself (engineer).',
    });
  });

  it('a chain that does not end with the caller is completed, so the caller is never handed work back', () => {
    expect(
      checkHandoff({ tool: 'delegate_task', chain: ['a'], depth: 1, callerId: 'e', targetId: 'q', nameOf }),
    ).toEqual({ ok: true, chain: ['a', 'e', 'q'], depth: 2 });
  });

  it('property: an accepted handoff never exceeds the depth and never repeats an agent', () => {
    const ids = fc.constantFrom('e', 'a', 'q', 'c', 'x');
    fc.assert(
      fc.property(
        fc.array(ids, { minLength: 1, maxLength: 4 }),
        ids,
        fc.integer({ min: 1, max: 5 }),
        (chain, target, depth) => {
          const caller = chain.at(-1) ?? 'e';
          const check = checkHandoff({
            tool: 'delegate_task',
            chain,
            depth,
            callerId: caller,
            targetId: target,
            nameOf,
          });
          if (!check.ok) return;
          expect(check.depth).toBeLessThanOrEqual(MAX_WAKE_DEPTH);
          expect(check.chain.at(-1)).toBe(target);
          expect(chain).not.toContain(target);
        },
      ),
    );
  });
});
