import fc from 'fast-check';
import { type SplitOptions, splitMessage } from '../../../src/core/text/split-message';

/** Discord's options, as `discord-render.ts` hands them. */
const DISCORD: SplitOptions = { breakAtCut: 'drop', blankParts: 'drop', lastFence: 'close' };

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

/** Whether markdown `text` ends inside a code fence (CommonMark: a closer repeats the opener's character, with no info string). */
function endsInFence(text: string): boolean {
  let open: string | null = null;
  for (const line of text.split('\n')) {
    const match = /^\s*(`{3,}|~{3,})(.*)$/.exec(line);
    if (match === null) continue;
    const marker = match[1] ?? '';
    if (open === null) open = marker;
    else if (marker[0] === open[0] && marker.length >= open.length && (match[2] ?? '').trim() === '')
      open = null;
  }
  return open !== null;
}
const withoutFences = (text: string) =>
  text
    .split('\n')
    .filter((line) => !/^\s*(```|~~~)/.test(line))
    .join('')
    .replace(/\s/g, '');

describe('P7: splitting a reply at Discord’s 2,000 characters (its limit and options as parameters)', () => {
  const discord = (text: string, limit = 2000) => splitMessage(text, limit, DISCORD);
  it('leaves a short reply alone', () => {
    expect(discord('hello')).toEqual(['hello']);
    expect(discord('x'.repeat(2000))).toEqual(['x'.repeat(2000)]);
  });

  it('cuts at line breaks, keeping order', () => {
    const text = ['a'.repeat(1500), 'b'.repeat(1500), 'c'.repeat(10)].join('\n');
    expect(discord(text)).toEqual(['a'.repeat(1500), `${'b'.repeat(1500)}\n${'c'.repeat(10)}`]);
  });

  it('closes a code fence at a cut and reopens it, with its language, in the next part', () => {
    const code = Array.from({ length: 120 }, (_, i) => `line ${i} ${'z'.repeat(20)}`);
    const parts = discord(['Intro', '```ts', ...code, '```', 'Outro'].join('\n'));
    expect(parts).toHaveLength(2);
    expect(parts[0]?.endsWith('\n```')).toBe(true);
    expect(parts[1]?.startsWith('```ts\n')).toBe(true);
    expect(parts[1]?.endsWith('```\nOutro')).toBe(true);
  });

  it('cuts a single line longer than a part', () => {
    const parts = discord('y'.repeat(4500));
    expect(parts.map((p) => p.length)).toEqual([2000, 2000, 500]);
  });

  it('leaves out parts of whitespace only and the break a part ends at', () => {
    const text = ['a'.repeat(1500), ' '.repeat(1990), 'b'.repeat(10)].join('\n');
    const parts = discord(text);
    expect(parts.every((p) => p.trim() !== '' && !p.endsWith('\n'))).toBe(true);
    expect(parts.join('').replace(/\s/g, '')).toBe(`${'a'.repeat(1500)}${'b'.repeat(10)}`);
    // Slack's defaults keep both: the parts join back into the text.
    expect(splitMessage(text, 2000).join('')).toBe(text);
  });

  it('property: parts fit, every part has balanced fences, and nothing but fences is added or lost', () => {
    const line = fc.oneof(
      fc.constantFrom('```', '```ts', '~~~', ''),
      fc.string({ maxLength: 300 }).map((s) => s.replace(/\n/g, ' ')),
      fc.nat(2600).map((n) => 'w'.repeat(n)),
    );
    fc.assert(
      fc.property(fc.array(line, { maxLength: 40 }), fc.integer({ min: 200, max: 2000 }), (lines, limit) => {
        const text = lines.join('\n');
        const parts = discord(text, limit);
        for (const part of parts) expect(part.length).toBeLessThanOrEqual(limit);
        // Split, every part is well-formed on its own: none ends inside a fence (one the reply
        // left open is closed); a reply that fits is left exactly as it is.
        if (parts.length === 1) expect(parts).toEqual([text]);
        else
          parts.forEach((part) => {
            expect(endsInFence(part)).toBe(false);
          });
        expect(withoutFences(parts.join('\n'))).toBe(withoutFences(text));
      }),
      { numRuns: 300 },
    );
  });
});
