import fc from 'fast-check';
import { splitMessage } from '../../../../src/bots/discord/split-message';

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

describe('P7: splitting a reply at Discord’s 2,000 characters', () => {
  it('leaves a short reply alone', () => {
    expect(splitMessage('hello')).toEqual(['hello']);
    expect(splitMessage('x'.repeat(2000))).toEqual(['x'.repeat(2000)]);
  });

  it('cuts at line breaks, keeping order', () => {
    const text = ['a'.repeat(1500), 'b'.repeat(1500), 'c'.repeat(10)].join('\n');
    expect(splitMessage(text)).toEqual(['a'.repeat(1500), `${'b'.repeat(1500)}\n${'c'.repeat(10)}`]);
  });

  it('closes a code fence at a cut and reopens it, with its language, in the next part', () => {
    const code = Array.from({ length: 120 }, (_, i) => `line ${i} ${'z'.repeat(20)}`);
    const parts = splitMessage(['Intro', '```ts', ...code, '```', 'Outro'].join('\n'));
    expect(parts).toHaveLength(2);
    expect(parts[0]?.endsWith('\n```')).toBe(true);
    expect(parts[1]?.startsWith('```ts\n')).toBe(true);
    expect(parts[1]?.endsWith('```\nOutro')).toBe(true);
  });

  it('cuts a single line longer than a part', () => {
    const parts = splitMessage('y'.repeat(4500));
    expect(parts.map((p) => p.length)).toEqual([2000, 2000, 500]);
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
        const parts = splitMessage(text, limit);
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
