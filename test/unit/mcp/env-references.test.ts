// biome-ignore-all lint/suspicious/noTemplateCurlyInString: E2: these strings are ${env:…} syntax, written out literally.
import fc from 'fast-check';
import {
  envReference,
  escapeLiteral,
  parseText,
  referenceProblemIn,
  variablesIn,
} from '../../../src/core/mcp/env-references';

const NAME = fc.stringMatching(/^[A-Z_][A-Z0-9_]{0,15}$/);

describe('${env:NAME} references (E2)', () => {
  it('E2 cuts a string into literal text and references, in order', () => {
    expect(parseText(`Bearer ${envReference('TOKEN')}`)).toEqual({
      ok: true,
      parts: [{ literal: 'Bearer ' }, { variable: 'TOKEN' }],
    });
    expect(parseText(`${envReference('A')}${envReference('B_2')}/x`)).toEqual({
      ok: true,
      parts: [{ variable: 'A' }, { variable: 'B_2' }, { literal: '/x' }],
    });
    expect(parseText('')).toEqual({ ok: true, parts: [] });
    expect(parseText('$HOME and $ { and {}')).toEqual({
      ok: true,
      parts: [{ literal: '$HOME and $ { and {}' }],
    });
  });

  it('E2 writes a literal ${ as $${', () => {
    expect(parseText('a$${b}')).toEqual({ ok: true, parts: [{ literal: 'a${b}' }] });
    expect(parseText('$$${env:X}')).toEqual({ ok: true, parts: [{ literal: '$${env:X}' }] });
    expect(variablesIn(`$\${env:NOT_ONE} ${envReference('ONE')}`)).toEqual(['ONE']);
  });

  it.each([
    ['${env:}', '"${env:}" names no variable'],
    ['${ENV:TOKEN}', '"${ENV:TOKEN}" is not a reference: write ${env:NAME} (or $${ for a literal ${)'],
    ['${HOME}', '"${HOME}" is not a reference: write ${env:NAME} (or $${ for a literal ${)'],
    [
      '${env:token}',
      '"${env:token}": a variable name is capital letters, digits and _, not starting with a digit',
    ],
    [
      '${env:1ST}',
      '"${env:1ST}": a variable name is capital letters, digits and _, not starting with a digit',
    ],
    [
      '${env:A-B}',
      '"${env:A-B}": a variable name is capital letters, digits and _, not starting with a digit',
    ],
    ['x ${env:TOKEN', '"${env:TOKEN" is not closed with "}"'],
  ])('E2 refuses %s with a sentence', (text, problem) => {
    expect(referenceProblemIn(text)).toBe(problem);
    expect(variablesIn(text)).toEqual([]);
  });

  it('E2 reads back any name it writes, and any literal it escapes', () => {
    fc.assert(
      fc.property(fc.string(), NAME, fc.string(), (before, name, after) => {
        // A `$` right before a reference would read as `$${`: it belongs in the variable's value.
        fc.pre(!before.endsWith('$'));
        const text = `${escapeLiteral(before)}${envReference(name)}${escapeLiteral(after)}`;
        const parsed = parseText(text);
        expect(parsed).toEqual({
          ok: true,
          parts: [
            ...(before === '' ? [] : [{ literal: before }]),
            { variable: name },
            ...(after === '' ? [] : [{ literal: after }]),
          ],
        });
        expect(variablesIn(text)).toEqual([name]);
      }),
    );
  });

  it('E2 never takes text without ${ for a reference', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        fc.pre(!text.includes('${'));
        expect(parseText(text)).toEqual({ ok: true, parts: text === '' ? [] : [{ literal: text }] });
      }),
    );
  });
});
