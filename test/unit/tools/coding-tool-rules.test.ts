import { BoundedListing } from '../../../src/core/tools/bounded-listing';
import { exactEdit } from '../../../src/core/tools/exact-edit';
import { numberedLines } from '../../../src/core/tools/numbered-lines';

const small = { maxLines: 3, maxBytes: 1_000, maxLineChars: 10 };

describe('A16: read_file windows, numbered like cat -n', () => {
  const text = 'one\ntwo\nthree\nfour\nfive\n';

  it('A16 numbers every line of a short file (the trailing newline starts no extra line)', () => {
    expect(numberedLines(text)).toBe('     1\tone\n     2\ttwo\n     3\tthree\n     4\tfour\n     5\tfive');
  });

  it('A16 a range: offset is 1-based, limit counts lines, and a window that stops early says how to read on', () => {
    expect(numberedLines(text, 2, 2)).toBe(
      '     2\ttwo\n     3\tthree\n[… lines 2–3 of 5 shown; read on with offset 4 …]',
    );
    expect(numberedLines(text, 4, 10)).toBe('     4\tfour\n     5\tfive');
    expect(numberedLines(text, 9)).toBe('The file has 5 lines; offset 9 is past its end.');
    expect(numberedLines('')).toBe('(empty file)');
  });

  it('A16 bounded by lines, bytes and line length, whatever limit asks for', () => {
    expect(numberedLines(text, 1, 100, small)).toBe(
      '     1\tone\n     2\ttwo\n     3\tthree\n[… lines 1–3 of 5 shown (the most one read returns); read on with offset 4 …]',
    );
    expect(numberedLines(`${'x'.repeat(25)}\nb`, 1, undefined, small)).toBe(
      `     1\t${'x'.repeat(10)} [… 15 characters of this line cut …]\n     2\tb`,
    );
    const byBytes = numberedLines(text, 1, undefined, { maxLines: 100, maxBytes: 30, maxLineChars: 100 });
    expect(byBytes).toBe(
      '     1\tone\n     2\ttwo\n[… lines 1–2 of 5 shown (the most one read returns); read on with offset 3 …]',
    );
  });
});

describe('A16: edits by exact replacement', () => {
  const file = 'const a = 1;\nconst b = 1;\nconst c = 2;\n';

  it('A16 replaces the one occurrence, literally (no $& patterns)', () => {
    expect(exactEdit(file, 'const c = 2;', 'const c = "$&";')).toEqual({
      ok: true,
      content: 'const a = 1;\nconst b = 1;\nconst c = "$&";\n',
      replaced: 1,
    });
  });

  it('A16 refuses an ambiguous old text, saying how many times it occurs, unless replace_all', () => {
    const refused = exactEdit(file, '= 1;', '= 3;');
    expect(refused).toEqual({ ok: false, reason: expect.stringContaining('occurs 2 times') });
    expect(refused.ok ? '' : refused.reason).toMatch(/set replace_all/);
    expect(exactEdit(file, '= 1;', '= 3;', true)).toEqual({
      ok: true,
      content: 'const a = 3;\nconst b = 3;\nconst c = 2;\n',
      replaced: 2,
    });
  });

  it('A16 refuses an empty, missing or unchanged old text with a sentence', () => {
    expect(exactEdit(file, '', 'x')).toEqual({
      ok: false,
      reason: expect.stringMatching(/^Refused: old_string is empty/),
    });
    expect(exactEdit(file, 'const d', 'x')).toEqual({
      ok: false,
      reason: expect.stringMatching(/^Refused: old_string was not found in the file/),
    });
    expect(exactEdit(file, 'const a', 'const a')).toEqual({
      ok: false,
      reason: 'Refused: old_string and new_string are the same; there is nothing to change.',
    });
  });

  it('A16 a file whose lines end in CRLF is matched and edited with its own line breaks', () => {
    expect(exactEdit('a\r\nb\r\nc\r\n', 'a\nb', 'x\ny\nz')).toEqual({
      ok: true,
      content: 'x\r\ny\r\nz\r\nc\r\n',
      replaced: 1,
    });
    expect(exactEdit('a\r\nb\r\n', 'a\nc', 'x')).toEqual({
      ok: false,
      reason: expect.stringMatching(/^Refused: old_string was not found/),
    });
  });

  it('A16 counts occurrences without overlap, as the replacement does', () => {
    expect(exactEdit('aaaa', 'aa', 'b', true)).toEqual({ ok: true, content: 'bb', replaced: 2 });
    expect(exactEdit('aaa', 'aa', 'b')).toEqual({ ok: true, content: 'ba', replaced: 1 });
  });
});

describe('A16: search and glob listings are bounded', () => {
  it('A16 stops at the row count and says so', () => {
    const listing = new BoundedListing(2, 1_000);
    expect([listing.add('a'), listing.add('b'), listing.add('c')]).toEqual([true, true, false]);
    expect(listing.full).toBe(true);
    expect(listing.render('matches', 'narrow the pattern')).toBe(
      'a\nb\n[… output stopped at 2 matches; narrow the pattern …]',
    );
  });

  it('A16 stops at the byte budget and takes nothing after the first row it refused', () => {
    const listing = new BoundedListing(100, 10);
    expect([listing.add('12345'), listing.add('123456'), listing.add('1')]).toEqual([true, false, false]);
    expect(listing.render('files', 'narrow it')).toBe('12345\n[… output stopped at 10 bytes; narrow it …]');
    const roomy = new BoundedListing(5, 100);
    roomy.add('x');
    expect(roomy.render('files', 'narrow it')).toBe('x');
  });
});
