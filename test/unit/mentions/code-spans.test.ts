import { findCodeRanges, maskCode } from '../../../src/core/mentions';

/** The code parts of `text`, as strings, in order. */
const codeOf = (text: string, chatFences = false) =>
  findCodeRanges(text, { chatFences }).map((range) => text.slice(range.start, range.end));

describe('maskCode', () => {
  it('M16: blanks code with spaces, keeping the length and the line breaks', () => {
    const text = 'a `b` c\n```ts\nx\n```\nd';
    const masked = maskCode(text);
    expect(masked).toBe('a     c\n     \n \n   \nd');
    expect(masked).toHaveLength(text.length);
  });

  it('returns text without code unchanged', () => {
    expect(maskCode('no code @here')).toBe('no code @here');
  });
});

describe('findCodeRanges: fences (M16)', () => {
  it('a fence with an info string runs from its marker to its closing line', () => {
    expect(findCodeRanges('hi\n```ts\ncode\n```\nbye')).toEqual([{ start: 3, end: 17, kind: 'fence' }]);
  });

  it('tildes and up to 3 spaces of indentation open fences; 4 spaces do not', () => {
    expect(codeOf('~~~\nx\n~~~')).toEqual(['~~~\nx\n~~~']);
    expect(codeOf('   ```\nx\n```')).toEqual(['```\nx\n```']);
    expect(codeOf('    ```\nx')).toEqual([]);
  });

  it('a fence closes only at a run of the same marker at least as long', () => {
    expect(codeOf('````\n```\n~~~~\n````\nafter')).toEqual(['````\n```\n~~~~\n````']);
  });

  it('a closing line may carry trailing spaces but nothing else', () => {
    expect(codeOf('```\nx\n```  \nafter')).toEqual(['```\nx\n```  ']);
    expect(codeOf('```\nx\n``` y\nafter')).toEqual(['```\nx\n``` y\nafter']);
  });

  it('an unclosed fence runs to the end of the text', () => {
    expect(codeOf('before\n```\n@bob\n\nstill code')).toEqual(['```\n@bob\n\nstill code']);
  });

  it('a backtick info string may not contain backticks: that line is inline code', () => {
    expect(codeOf('```a`b```\n@bob')).toEqual(['```a`b```']);
  });

  it('CRLF line endings are understood (a range ends before the line feed)', () => {
    expect(codeOf('```\r\nx\r\n```\r\nafter')).toEqual(['```\r\nx\r\n```\r']);
  });

  it('a fence after prose on the same line is not a fence in markdown', () => {
    expect(codeOf('@alice ```\nx\n')).toEqual([]);
  });
});

describe('findCodeRanges: inline spans (M16)', () => {
  it('a run of N backticks closes at the next run of exactly N', () => {
    expect(codeOf('a ``b `c` d`` e `f`')).toEqual(['``b `c` d``', '`f`']);
  });

  it('an opener without a closer is literal', () => {
    expect(codeOf('a ` b `` c')).toEqual([]);
    expect(codeOf('a `` b ` c ` d')).toEqual(['` c `']);
  });

  it('a span may cross a line break but not a blank line or a fence', () => {
    expect(codeOf('a `b\nc` d')).toEqual(['`b\nc`']);
    expect(codeOf('a `b\n\nc` d')).toEqual([]);
    expect(codeOf('a `b\n```\nx\n```\nc` d')).toEqual(['```\nx\n```']);
  });
});

describe('findCodeRanges: chat fences (text typed by people)', () => {
  it('a fence may open after leading mentions; the mentions stay prose', () => {
    expect(codeOf('@alice, @bob ```\nx\n```', true)).toEqual(['```\nx\n```']);
  });

  it('other prose before the marker still keeps it from opening a fence', () => {
    // The `\`\`\`` after "please" is a literal run; the last line opens an (empty) fence.
    expect(codeOf('please ```\nx\n```', true)).toEqual(['```']);
  });

  it('a fence closes at a line that ends with its marker', () => {
    expect(codeOf('```one\ntwo```\nafter', true)).toEqual(['```one\ntwo```']);
  });
});
