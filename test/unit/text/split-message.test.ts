import fc from 'fast-check';
import { splitMessage } from '../../../src/core/text/split-message';

const content = (s: string) => s.split('\n').filter((line) => line !== '' && !line.startsWith('```'));

describe('P7: splitting a long message', () => {
  it('keeps a short message whole', () => {
    expect(splitMessage('hello', 100)).toEqual(['hello']);
  });

  it('breaks at line ends, each part under the limit', () => {
    const text = Array.from({ length: 50 }, (_, i) => `line ${i}`).join('\n');
    const parts = splitMessage(text, 60);
    expect(parts.every((p) => p.length <= 60)).toBe(true);
    expect(parts.join('')).toBe(text);
  });

  it('closes a fence at a break and opens it again with its info string', () => {
    const text = [
      '```ts',
      ...Array.from({ length: 20 }, (_, i) => `const a${i} = ${i};`),
      '```',
      'done',
    ].join('\n');
    const parts = splitMessage(text, 120);
    expect(parts.length).toBeGreaterThan(1);
    for (const part of parts.slice(0, -1)) expect(part.endsWith('\n```')).toBe(true);
    for (const part of parts.slice(1)) expect(part.startsWith('```ts\n')).toBe(true);
    expect(content(parts.join('\n'))).toEqual(content(text));
  });

  it('cuts a line longer than a part', () => {
    const parts = splitMessage('x'.repeat(250), 100);
    expect(parts.every((p) => p.length <= 100)).toBe(true);
    expect(parts.join('')).toBe('x'.repeat(250));
  });

  it('a fence opened near a break still gets its closing line inside the limit (found by the property)', () => {
    const lines = ['a', '```', '```py', 'aaaaaaaaaa', '```', 'aaa', '```py', '```', '```'];
    const parts = splitMessage(lines.join('\n'), 40);
    expect(parts.every((p) => p.length <= 40)).toBe(true);
    expect(content(parts.join('\n')).join('')).toBe(content(lines.join('\n')).join(''));
  });

  it('property: every part fits and the text comes back', () => {
    const line = fc.oneof(
      fc.constant('```'),
      fc.constant('```py'),
      fc.string({ unit: fc.constantFrom('a', 'b', ' ', '`'), maxLength: 150 }),
    );
    fc.assert(
      fc.property(fc.array(line, { maxLength: 60 }), fc.integer({ min: 40, max: 300 }), (lines, limit) => {
        const text = lines.join('\n');
        const parts = splitMessage(text, limit);
        expect(parts.every((p) => p.length <= limit)).toBe(true);
        expect(content(parts.join('\n')).join('')).toBe(content(text).join(''));
      }),
      { numRuns: 1000 },
    );
  });
});
