import { classifyAttachment, looksLikeText, sniffImage } from '../../../src/core/attachments/attachment-kind';
import { describeSize } from '../../../src/core/attachments/attachment-limits';
import { distinctFileNames, safeFileName } from '../../../src/core/attachments/safe-file-name';
import { fenceFor, textExcerpt } from '../../../src/core/attachments/text-excerpt';
import { toAttachmentRefs } from '../../../src/core/model/attachment';
import { composePrompt } from '../../../src/core/prompt';
import { SERVER_LOG, TINY_PNG, ZIP_BYTES } from '../../support/attachment-files';
import { baseInput } from '../prompt/prompt-fixtures';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('P13: what an attachment is to the model', () => {
  it('P13: images by their own bytes, whatever the name or type says', () => {
    expect(sniffImage(TINY_PNG)).toBe('image/png');
    expect(sniffImage(Uint8Array.from([0xff, 0xd8, 0xff, 0xe0]))).toBe('image/jpeg');
    expect(sniffImage(bytes('GIF89a……'))).toBe('image/gif');
    expect(sniffImage(Uint8Array.from([0x52, 0x49, 0x46, 0x46, 0, 0, 0, 0, 0x57, 0x45, 0x42, 0x50]))).toBe(
      'image/webp',
    );
    expect(classifyAttachment(TINY_PNG, 'application/octet-stream')).toEqual({
      kind: 'image',
      mediaType: 'image/png',
    });
    // An SVG is text, not an image the model APIs take.
    expect(classifyAttachment(bytes('<svg xmlns="http://www.w3.org/2000/svg"/>'), 'image/svg+xml')).toEqual({
      kind: 'file',
    });
  });

  it('P13: text when declared text (or undeclared) and readable UTF-8; binaries are files', () => {
    expect(classifyAttachment(SERVER_LOG, 'text/plain')).toEqual({ kind: 'text' });
    expect(classifyAttachment(bytes('{"a":1}'), 'application/json')).toEqual({ kind: 'text' });
    expect(classifyAttachment(bytes('key: value\n'), null)).toEqual({ kind: 'text' });
    expect(classifyAttachment(ZIP_BYTES, 'application/zip')).toEqual({ kind: 'file' });
    expect(classifyAttachment(bytes('plain words'), 'application/pdf')).toEqual({ kind: 'file' });
    expect(classifyAttachment(Uint8Array.from([0xc3, 0x28]), 'text/plain')).toEqual({ kind: 'file' });
    expect(looksLikeText(Uint8Array.from([0x61, 0, 0x62]))).toBe(false);
  });

  it('P13: a text file is cut at a whole line when it can be, and its fence cannot be closed by the file', () => {
    expect(textExcerpt(bytes('short'), 100)).toEqual({ text: 'short', totalChars: 5, cut: false });
    expect(textExcerpt(bytes('line one\nline two\nline three'), 20)).toEqual({
      text: 'line one\nline two',
      totalChars: 28,
      cut: true,
    });
    expect(textExcerpt(bytes('x'.repeat(50)), 10).text).toBe('x'.repeat(10));
    expect(fenceFor('no backticks')).toBe('```');
    expect(fenceFor('a ```` fence')).toBe('`````');
  });

  it('P13: names become plain file names in one folder, distinct within a message', () => {
    expect(safeFileName('../../etc/passwd')).toBe('passwd');
    expect(safeFileName('..\\..\\boot.ini')).toBe('boot.ini');
    expect(safeFileName('.bashrc')).toBe('bashrc');
    expect(safeFileName('a\u0000b\nc.txt')).toBe('abc.txt');
    expect(safeFileName('..')).toBe('attachment');
    expect(safeFileName(`${'n'.repeat(300)}.log`)).toBe(`${'n'.repeat(116)}.log`);
    expect(distinctFileNames(['log.txt', 'LOG.txt', 'log.txt', 'README'])).toEqual([
      'log.txt',
      'LOG (2).txt',
      'log (3).txt',
      'README',
    ]);
  });

  it('P13: sizes as the prompt names them', () => {
    expect(describeSize(1)).toBe('1 byte');
    expect(describeSize(999)).toBe('999 bytes');
    expect(describeSize(2048)).toBe('2 KB');
    expect(describeSize(90_000)).toBe('87.9 KB');
    expect(describeSize(25 * 1024 * 1024)).toBe('25 MB');
  });

  it('P13: stored descriptions are read defensively', () => {
    expect(
      toAttachmentRefs([
        { id: 'F1', name: 'a.txt', size: 3, mimeType: 'text/plain', url: 'https://files.slack.com/x' },
        { id: 'F2', name: 'b', size: -1 },
        'nonsense',
        { id: 'F3', name: 'c', size: 0, unavailable: 'deleted' },
      ]),
    ).toEqual([
      { id: 'F1', name: 'a.txt', size: 3, mimeType: 'text/plain', url: 'https://files.slack.com/x' },
      { id: 'F3', name: 'c', size: 0, mimeType: null, url: null, unavailable: 'deleted' },
    ]);
    expect(toAttachmentRefs(null)).toEqual([]);
  });

  it('P13: the prompt names every file with its size and what became of it, texts after the list', () => {
    const composed = composePrompt(
      baseInput({
        attachments: [
          { name: 'shot.png', size: 2048, mimeType: 'image/png', note: 'shown to you as an image.' },
          {
            name: 'notes.md',
            size: 14,
            mimeType: null,
            note: 'its text follows below.',
            text: { body: 'use ``` fences', cutNote: null },
          },
        ],
      }),
    );
    expect(composed.prompt).toContain(
      '## Attached files\n\nThe message came with 2 files:\n\n- shot.png (image/png, 2 KB): shown to you as an image.\n- notes.md (14 bytes): its text follows below.\n\n### notes.md\n\n````\nuse ``` fences\n````',
    );
    expect(composed.system).not.toContain('Attached files');
  });
});
