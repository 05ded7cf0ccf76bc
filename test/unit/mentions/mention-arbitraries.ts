import fc from 'fast-check';

/**
 * Generators for the mention property tests. `mentionishText` is built from the pieces that
 * matter to the parsers (names, glue, punctuation, backticks, fences, line breaks) so that
 * fast-check meets the interesting interactions far more often than with random strings.
 */

export const CANDIDATE_NAMES = ['alice', 'bob', 'architect', 'archivist', 'code-reviewer', 'code', 'sam'];

const PIECES = [
  '@alice',
  '@Alice',
  '@bob',
  '@arch',
  '@code-reviewer',
  '@code',
  '@sam',
  '@sa',
  '@zed',
  '@',
  'x',
  'word',
  '42',
  'é',
  '\u0301',
  '👍',
  ' ',
  '  ',
  '\t',
  '\n',
  '\n\n',
  '\r\n',
  ',',
  '.',
  ':',
  ';',
  '!',
  '-',
  '/',
  '(',
  ')',
  '"',
  '*',
  '_',
  '~',
  '<',
  '>',
  '`',
  '``',
  '```',
  '```ts',
  '   ```',
  '~~~',
  'sam@host.com',
  '<@U123>',
];

export const mentionishText = fc
  .array(fc.constantFrom(...PIECES), { maxLength: 40 })
  .map((pieces) => pieces.join(''));

/** Any text at all: arbitrary code points, graphemes, or mention-heavy pieces. */
export const anyText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.string({ unit: 'grapheme', maxLength: 100 }),
  mentionishText,
);

/** Text that cannot open code or name anyone by itself: no `@`, backtick or tilde. */
export const inertText = fc
  .string({ unit: 'grapheme', maxLength: 40 })
  .map((text) => text.replace(/[@`~]/g, ''));

/** The same, on one line (for the inside of an inline code span). */
export const inertLine = inertText.map((text) => text.replace(/[\r\n]/g, ' '));

export const candidateName = fc.constantFrom(...CANDIDATE_NAMES);

/** `@name` hidden in code, in every shape M16 covers, with inert text around it. */
export const mentionInCode = fc
  .record({
    name: candidateName,
    before: inertText,
    inside: inertLine,
    after: inertText,
    shape: fc.constantFrom(
      'inline',
      'double-inline',
      'fence',
      'tilde-fence',
      'indented-fence',
      'unclosed-fence',
    ),
  })
  .map(({ name, before, inside, after, shape }) => {
    const mention = `@${name}`;
    switch (shape) {
      case 'inline':
        return `${before}\`${inside}${mention}${inside}\`${after}`;
      case 'double-inline':
        return `${before}\`\`a \`${mention}\` ${inside}\`\`${after}`;
      case 'fence':
        return `${before}\n\`\`\`ts\n${inside}\n${mention} ${inside}\n\`\`\`\n${after}`;
      case 'tilde-fence':
        return `${before}\n~~~\n${mention}\n~~~~\n${after}`;
      case 'indented-fence':
        return `${before}\n  \`\`\`\` info\n${mention}\n   \`\`\`\`\n${after}`;
      default:
        return `${before}\n\`\`\`\n${inside}\n${after}${mention}${inside}`;
    }
  });
