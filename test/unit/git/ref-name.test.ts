import fc from 'fast-check';
import { decodeRefName, encodeRefName } from '../../../src/core/git/ref-name';

describe('G5 ref names are bytes end to end', () => {
  it('reads UTF-8 as the letters it spells', () => {
    expect(decodeRefName(Buffer.from('refs/heads/dény', 'utf8'))).toBe('refs/heads/dény');
    expect(decodeRefName(Buffer.from('refs/heads/機能/ß', 'utf8'))).toBe('refs/heads/機能/ß');
  });

  it('keeps a byte that is not UTF-8 (and a backslash) as \\xNN, never a replacement character', () => {
    expect(decodeRefName(Buffer.from('refs/heads/d\xe9ny', 'latin1'))).toBe('refs/heads/d\\xe9ny');
    expect(decodeRefName(Buffer.from('a\\b', 'latin1'))).toBe('a\\x5cb');
    expect(decodeRefName(Uint8Array.of(0xc3, 0xa9, 0xc3))).toBe('é\\xc3');
  });

  it('encoding gives back exactly the bytes that were read, whatever they are', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
        expect(Buffer.from(encodeRefName(decodeRefName(bytes))).equals(Buffer.from(bytes))).toBe(true);
      }),
      { numRuns: 2000 },
    );
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 30 }), (text) => {
        const bytes = Buffer.from(text, 'utf8');
        expect(Buffer.from(encodeRefName(decodeRefName(bytes))).equals(bytes)).toBe(true);
      }),
    );
  });
});
