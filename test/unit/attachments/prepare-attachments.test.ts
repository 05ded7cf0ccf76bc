import { slackFileRefs } from '../../../src/bots/slack/inbound/slack-files';
import { DEFAULT_ATTACHMENT_LIMITS } from '../../../src/core/attachments/attachment-limits';
import { prepareAttachments } from '../../../src/core/attachments/prepare-attachments';
import type { AttachmentRef } from '../../../src/core/model/attachment';
import type {
  AttachmentFetcher,
  AttachmentShelf,
  DownloadResult,
} from '../../../src/core/ports/attachment-fetcher';
import { silentLogger } from '../../../src/core/ports/logger';
import { SERVER_LOG, TINY_PNG, ZIP_BYTES } from '../../support/attachment-files';

/** A hand-written platform: serves the files it holds by URL, and says what it was asked. */
class FilesByUrl implements AttachmentFetcher {
  readonly asked: { url: string | null; maxBytes: number }[] = [];
  constructor(private readonly files: Record<string, DownloadResult>) {}
  async download(ref: AttachmentRef, limits: { maxBytes: number }): Promise<DownloadResult> {
    this.asked.push({ url: ref.url, maxBytes: limits.maxBytes });
    return this.files[ref.url ?? ''] ?? { ok: false, reason: 'failed', sentence: 'no such file.' };
  }
}

/** A hand-written shelf: keeps what it is given, by name. */
class MemoryShelf implements AttachmentShelf {
  readonly saved = new Map<string, Uint8Array>();
  async save(_dir: string, name: string, bytes: Uint8Array): Promise<string> {
    this.saved.set(name, bytes);
    return `attachments/${name}`;
  }
}

const ref = (
  name: string,
  size: number,
  mimeType: string | null,
  url: string | null = `https://f/${name}`,
): AttachmentRef => ({
  id: `F-${name}`,
  name,
  size,
  mimeType,
  url,
});
const served = (bytes: Uint8Array, mimeType: string | null = null): DownloadResult => ({
  ok: true,
  bytes,
  mimeType,
});

describe('P13: a turn’s attachments, prepared', () => {
  it('P13: a CLI agent (no image input) gets its images saved in the working folder, named in the prompt', async () => {
    const fetcher = new FilesByUrl({ 'https://f/shot.png': served(TINY_PNG, 'image/png') });
    const shelf = new MemoryShelf();
    const prepared = await prepareAttachments([ref('shot.png', TINY_PNG.length, 'image/png')], {
      fetcher,
      shelf,
      workingDir: '/work',
      takesImages: false,
      logger: silentLogger,
    });
    expect(prepared.images).toEqual([]);
    expect(prepared.attachments).toEqual([
      {
        name: 'shot.png',
        size: TINY_PNG.length,
        mimeType: 'image/png',
        note: 'this agent takes no image input; saved as `attachments/shot.png` in your working folder.',
      },
    ]);
    expect(shelf.saved.get('shot.png')).toEqual(TINY_PNG);
  });

  it('P13: failures and refusals are sentences; the rest still arrives; the message’s total bounds each download', async () => {
    const limits = { ...DEFAULT_ATTACHMENT_LIMITS, totalBytes: 200, fileBytes: 150 };
    const fetcher = new FilesByUrl({
      'https://f/a.zip': served(ZIP_BYTES),
      'https://f/server.log': served(SERVER_LOG, 'text/plain'),
    });
    const prepared = await prepareAttachments(
      [
        ref('gone.txt', 10, 'text/plain', null),
        { ...ref('old.txt', 10, 'text/plain', null), unavailable: 'Slack shows it as deleted' },
        ref('missing.txt', 10, 'text/plain'),
        ref('a.zip', ZIP_BYTES.length, 'application/zip'),
        ref('server.log', SERVER_LOG.length, 'text/plain'),
        ref('more.bin', 100, null),
      ],
      {
        fetcher,
        shelf: new MemoryShelf(),
        workingDir: '/work',
        takesImages: true,
        limits,
        logger: silentLogger,
      },
    );
    expect(prepared.attachments.map((a) => `${a.name}: ${a.note}`)).toEqual([
      'gone.txt: not fetched: the platform gave no download link for it.',
      'old.txt: not fetched: the platform gave no download link for it (Slack shows it as deleted).',
      'missing.txt: not fetched: no such file.',
      'a.zip: saved as `attachments/a.zip` in your working folder.',
      'server.log: its text follows below.',
      "more.bin: not fetched: the message's files together are larger than the 200 bytes Summon fetches of one message.",
    ]);
    // Each download may take what is left of the message's total, at most one file's cap.
    expect(fetcher.asked.map((a) => a.maxBytes)).toEqual([150, 150, 200 - ZIP_BYTES.length]);
  });

  it('P13: without a downloader or a folder, the files are still named with a sentence', async () => {
    const noFetcher = await prepareAttachments([ref('a.log', 5, 'text/plain')], {
      fetcher: undefined,
      shelf: undefined,
      workingDir: '/work',
      takesImages: true,
      logger: silentLogger,
    });
    expect(noFetcher.attachments[0]?.note).toBe('not fetched: this chat connection cannot download files.');
    const noShelf = await prepareAttachments([ref('a.zip', ZIP_BYTES.length, 'application/zip')], {
      fetcher: new FilesByUrl({ 'https://f/a.zip': served(ZIP_BYTES) }),
      shelf: undefined,
      workingDir: '/work',
      takesImages: true,
      logger: silentLogger,
    });
    expect(noShelf.attachments[0]?.note).toBe(
      'it was received but not kept: there is no working folder for files.',
    );
  });
});

describe('P13: Slack file objects as attachment descriptions (from the event alone, T4)', () => {
  it('P13: hosted files keep their url_private; external, deleted and hidden ones have no link, with the reason', () => {
    expect(
      slackFileRefs([
        {
          id: 'F1',
          name: 'shot.png',
          mimetype: 'image/png',
          size: 70,
          url_private: 'https://files.slack.com/files-pri/T-F1/shot.png',
          mode: 'hosted',
        },
        {
          id: 'F2',
          name: 'doc',
          mimetype: 'application/vnd.google-apps.document',
          size: 0,
          url_private: 'https://docs.google.com/x',
          is_external: true,
          mode: 'external',
        },
        { id: 'F3', mode: 'tombstone' },
        { id: 'F4', mode: 'hidden_by_limit' },
        { name: 'no id' },
      ]),
    ).toEqual([
      {
        id: 'F1',
        name: 'shot.png',
        size: 70,
        mimeType: 'image/png',
        url: 'https://files.slack.com/files-pri/T-F1/shot.png',
      },
      {
        id: 'F2',
        name: 'doc',
        size: 0,
        mimeType: 'application/vnd.google-apps.document',
        url: null,
        unavailable: 'it is a link to a file outside Slack',
      },
      { id: 'F3', name: 'F3', size: 0, mimeType: null, url: null, unavailable: 'Slack shows it as deleted' },
      {
        id: 'F4',
        name: 'F4',
        size: 0,
        mimeType: null,
        url: null,
        unavailable: 'Slack shows it as hidden by the plan’s file limit',
      },
    ]);
    expect(slackFileRefs(undefined)).toEqual([]);
  });
});
