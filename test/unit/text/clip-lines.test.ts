import fc from 'fast-check';
import { clipLines } from '../../../src/core/text/clip-lines';

describe('clipLines: cut cards say how much they left out', () => {
  it('keeps everything that fits; one long line is cut', () => {
    expect(clipLines(['a', 'b'], 10)).toBe('a\nb');
    expect(clipLines(['x'.repeat(50)], 10)).toBe(`${'x'.repeat(9)}…`);
  });

  it('keeps whole lines, then says how many more', () => {
    const lines = Array.from(
      { length: 150 },
      (_, i) => `topic-${i + 1}: (new) → 2222222 — new branch, 3 commits`,
    );
    const text = clipLines(lines, 4096);
    expect(text.length).toBeLessThanOrEqual(4096);
    const shown = text.split('\n');
    const last = shown.at(-1) ?? '';
    expect(last).toMatch(/^… and \d+ more lines$/);
    expect(shown.length - 1 + Number(/\d+/.exec(last)?.[0])).toBe(150);
    expect(shown.slice(0, -1)).toEqual(lines.slice(0, shown.length - 1));
  });

  it('never exceeds the limit and always accounts for every line', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ maxLength: 80 }), { maxLength: 60 }),
        fc.integer({ min: 30, max: 600 }),
        (lines, limit) => {
          const text = clipLines(lines, limit);
          expect(text.length).toBeLessThanOrEqual(limit);
          if (text === lines.join('\n')) return;
          const left = /… and (\d+) more lines?$/.exec(text)?.[1];
          if (left === undefined) expect(lines.length === 1 && text.endsWith('…')).toBe(true);
          else expect(Number(left)).toBeGreaterThan(0);
        },
      ),
    );
  });
});
