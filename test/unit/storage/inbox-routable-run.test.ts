import fc from 'fast-check';
import { routableRun, type WindowRow } from '../../../src/storage/store/repositories/inbox-routable-run';

const row = (threadKey: string, over: Partial<WindowRow> = {}): WindowRow => ({
  platform: 'slack',
  threadKey,
  channelKey: null,
  due: true,
  locked: false,
  ...over,
});

describe('T4: the rows one claim may route, in order', () => {
  it('takes its heads and the rows after them; another transaction’s head holds back its thread and channel', () => {
    const window = [
      row('a', { locked: true }),
      row('x1', { channelKey: 'c', locked: true }),
      row('b'), // another transaction's head
      row('a'),
      row('x2', { channelKey: 'c' }),
      row('b'),
      row('x3', { channelKey: 'c', due: false }), // waiting for its retry
      row('x4', { channelKey: 'c' }),
      row('a'),
    ];
    expect(routableRun(window, 10)).toEqual([0, 1, 3, 4, 8]);
    expect(routableRun(window, 3)).toEqual([0, 1, 3]);
  });

  it('a row of a platform not decoded here (not due) holds back its thread', () => {
    expect(
      routableRun([row('a', { locked: true }), row('a', { platform: 'discord', due: false })], 5),
    ).toEqual([0]);
  });

  it('property: every row taken has each earlier row of its thread and channel taken before it', () => {
    const arbitraryRow = fc.record({
      platform: fc.constantFrom('slack', 'discord'),
      threadKey: fc.constantFrom('t1', 't2', 't3', 't4'),
      channelKey: fc.constantFrom(null, 'c1', 'c2'),
      due: fc.boolean(),
      locked: fc.boolean(),
    });
    fc.assert(
      fc.property(
        fc.array(arbitraryRow, { maxLength: 30 }),
        fc.integer({ min: 1, max: 30 }),
        (raw, limit) => {
          // A locked row is a head: no earlier row of its groups in the window.
          const groups = (r: WindowRow) => [
            `${r.platform}/t/${r.threadKey}`,
            ...(r.channelKey === null ? [] : [`${r.platform}/c/${r.channelKey}`]),
          ];
          const seen = new Set<string>();
          const window = raw.map((r) => {
            const head = groups(r).every((g) => !seen.has(g));
            for (const g of groups(r)) seen.add(g);
            return { ...r, locked: r.locked && head && r.due };
          });
          const taken = routableRun(window, limit);
          expect(taken.length).toBeLessThanOrEqual(limit);
          expect([...taken].sort((a, b) => a - b)).toEqual(taken);
          const takenSet = new Set(taken);
          for (const index of taken) {
            const mine = groups(window[index] as WindowRow);
            for (let earlier = 0; earlier < index; earlier += 1) {
              const shares = groups(window[earlier] as WindowRow).some((g) => mine.includes(g));
              if (shares) expect(takenSet.has(earlier)).toBe(true);
            }
            const r = window[index] as WindowRow;
            expect(r.locked || r.due).toBe(true);
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});
