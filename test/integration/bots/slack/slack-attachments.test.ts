import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { createLogger } from '../../../../src/app/logger';
import { DEFAULT_ATTACHMENT_LIMITS } from '../../../../src/core/attachments/attachment-limits';
import { anthropicAgent } from '../../../support/anthropic-agent';
import { firstUserContent, SERVER_LOG, TINY_PNG, ZIP_BYTES } from '../../../support/attachment-files';
import { waitFor } from '../../../support/engine-harness';
import { CHANNEL, eventFrom } from '../../../support/slack-delivery';
import { openSlackHarness, type SlackHarness } from '../../../support/slack-harness';
import { AnthropicStandIn } from '../../../support/stand-ins/anthropic-stand-in';

const ANTHROPIC_KEY = 'sk-ant-api03-SLACK-ATTACHMENTS-5d1e';

type Block = { type: string; text?: string; source?: { type: string; media_type: string; data: string } };

describe('P13: files shared in Slack reach the agent (real Bolt, the Slack file host, the Messages API stand-in)', () => {
  let h: SlackHarness;
  let anthropic: AnthropicStandIn;
  let logLines: string[];

  beforeEach(async () => {
    anthropic = await AnthropicStandIn.start({ apiKey: ANTHROPIC_KEY });
    anthropic.reply = () => ({ kind: 'stream', blocks: [{ type: 'text', chunks: ['Looked at it.'] }] });
    logLines = [];
    h = await openSlackHarness({
      ...anthropicAgent(anthropic, ANTHROPIC_KEY),
      logger: createLogger({ level: 'debug', destination: { write: (line: string) => logLines.push(line) } }),
      // Small caps, so each one is reached by a small file.
      attachmentLimits: { ...DEFAULT_ATTACHMENT_LIMITS, fileBytes: 4096, imageBytes: 1024, textChars: 40 },
    });
  });
  afterEach(async () => {
    await h?.close();
    await anthropic.close();
  });

  const share = async (text: string, files: Record<string, unknown>[]) => {
    const ts = h.standIn.addPersonMessage(CHANNEL, null);
    const response = await h.deliver(eventFrom('message-channel', { ts, text, files, upload: true }));
    expect(response.status).toBe(200);
    return ts;
  };
  const replied = (ts: string) =>
    waitFor(async () =>
      h.standIn.inThread(CHANNEL, ts).some((m) => m.username === 'engineer' && m.text === 'Looked at it.'),
    );
  /** The prompt text of a user message's content (a string without images, else its prompt block). */
  const promptOf = (content: unknown): string =>
    typeof content === 'string'
      ? content
      : ((content as Block[]).find((b) => b.type === 'text' && b.text?.includes('## Prompt'))?.text ?? '');

  it('P13: an image goes to the model as an image block and a text file as text, both named with their size; downloaded with the bot token', async () => {
    const png = h.standIn.files.add({ name: 'screenshot.png', mimetype: 'image/png', bytes: TINY_PNG });
    const log = h.standIn.files.add({
      name: 'server.log',
      mimetype: 'text/plain',
      bytes: SERVER_LOG.subarray(0, 36),
    });
    const ts = await share('@engineer look at this log', [png, log]);
    await replied(ts);

    expect(anthropic.requests).toHaveLength(1);
    expect(anthropic.requests[0]?.status).toBe(200);
    const content = firstUserContent(anthropic.requests[0]?.body) as Block[];
    expect(content.slice(0, 2)).toEqual([
      { type: 'text', text: 'Attached image: screenshot.png' },
      {
        type: 'image',
        source: { type: 'base64', media_type: 'image/png', data: TINY_PNG.toString('base64') },
      },
    ]);
    const prompt = promptOf(content);
    expect(prompt).toContain('look at this log');
    expect(prompt).toContain(
      `- screenshot.png (image/png, ${TINY_PNG.length} bytes): shown to you as an image.`,
    );
    expect(prompt).toContain('- server.log (text/plain, 36 bytes): its text follows below.');
    expect(prompt).toContain('### server.log\n\n```\n09:14:02 ERROR db timeout after 30s\n\n```');
    // Each file was fetched once, from url_private, with the bot token (files:read).
    expect(h.standIn.files.downloads).toEqual([
      { fileId: png.id, status: 200, authorization: `Bearer ${h.standIn.token}` },
      { fileId: log.id, status: 200, authorization: `Bearer ${h.standIn.token}` },
    ]);
    // The token is never logged.
    expect(logLines.join('\n')).not.toContain(h.standIn.token);
  });

  it('P13, T4: the ack stores the files’ description in the inbox row and downloads nothing; the turn fetches them', async () => {
    await h.restart({ inbox: { lanes: 0 } });
    const file = h.standIn.files.add({ name: 'server.log', mimetype: 'text/plain', bytes: SERVER_LOG });
    const ts = await share('@engineer what failed?', [file]);
    const rows = await h.store.transaction((tx) =>
      (tx as unknown as { query: <R>(sql: string) => Promise<R[]> }).query<{
        payload: { files?: unknown[] };
      }>('SELECT payload FROM inbound_inbox'),
    );
    expect(rows.map((row) => row.payload.files)).toEqual([
      [
        {
          id: file.id,
          name: 'server.log',
          size: SERVER_LOG.length,
          mimeType: 'text/plain',
          url: file.url_private,
        },
      ],
    ]);
    expect(h.standIn.files.downloads).toEqual([]);

    await h.restart();
    await replied(ts);
    expect(h.standIn.files.downloads.map((d) => d.status)).toEqual([200]);
    expect(promptOf(firstUserContent(anthropic.requests[0]?.body))).toContain('db timeout after 30s');
  });

  it('P13: caps are sentences: a file over the cap is not fetched, an image over the image cap and a long text file are saved whole, a zip is saved by name', async () => {
    const big = h.standIn.files.add({
      name: 'core.dump',
      mimetype: 'application/octet-stream',
      bytes: Buffer.alloc(16),
      size: 90_000,
    });
    const wide = h.standIn.files.add({
      name: 'wide.png',
      mimetype: 'image/png',
      bytes: Buffer.concat([TINY_PNG, Buffer.alloc(2000)]),
    });
    const log = h.standIn.files.add({ name: 'server.log', mimetype: 'text/plain', bytes: SERVER_LOG });
    const zip = h.standIn.files.add({
      name: '../../etc/report.zip',
      mimetype: 'application/zip',
      bytes: ZIP_BYTES,
    });
    const ts = await share('@engineer here is everything', [big, wide, log, zip]);
    await replied(ts);

    const content = firstUserContent(anthropic.requests[0]?.body);
    // No image block: the only image was over the cap.
    expect(typeof content === 'string' ? content : JSON.stringify(content)).not.toContain('"type":"image"');
    const prompt = promptOf(content);
    expect(prompt).toContain(
      '- core.dump (application/octet-stream, 87.9 KB): not fetched: it is larger than the 4 KB Summon fetches of one file.',
    );
    expect(prompt).toContain(
      '- wide.png (image/png, 2 KB): too large to show as an image (over 1 KB); saved as `attachments/wide.png` in your working folder.',
    );
    expect(prompt).toContain(
      `- server.log (text/plain, ${SERVER_LOG.length} bytes): its beginning follows below.`,
    );
    expect(prompt).toContain(
      `(server.log is cut here: 35 of its ${SERVER_LOG.length} characters are shown. The whole file: saved as \`attachments/server.log\` in your working folder.)`,
    );
    expect(prompt).toContain(
      '- ../../etc/report.zip (application/zip, 64 bytes): saved as `attachments/report.zip` in your working folder.',
    );
    // The file over the cap was never requested; the others are in the working folder, whole.
    expect(h.standIn.files.downloads.map((d) => d.fileId)).toEqual([wide.id, log.id, zip.id]);
    const saved = path.join(h.agentDir('engineer'), 'attachments');
    expect(await readFile(path.join(saved, 'server.log'))).toEqual(SERVER_LOG);
    expect(await readFile(path.join(saved, 'report.zip'))).toEqual(ZIP_BYTES);
  });

  it('P13: a download Slack refuses (a token it no longer accepts for files) is a sentence in the prompt and the log; the turn still answers', async () => {
    h.standIn.files.acceptedToken = 'xoxb-rotated-token';
    const log = h.standIn.files.add({ name: 'server.log', mimetype: 'text/plain', bytes: SERVER_LOG });
    const ts = await share('@engineer what failed?', [log]);
    await replied(ts);

    expect(h.standIn.files.downloads.map((d) => d.status)).toEqual([403]);
    // A14: no image, so the prompt is one text block (with its cache breakpoint)
    const content = firstUserContent(anthropic.requests[0]?.body) as { type: string; text?: string }[];
    expect(content.map((block) => block.type)).toEqual(['text']);
    expect(content[0]?.text).toContain(
      `- server.log (text/plain, ${SERVER_LOG.length} bytes): not fetched: Slack refused the download (HTTP 403).`,
    );
    const warning = logLines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .find((entry) => entry.msg === 'attachment download failed');
    expect(warning).toMatchObject({
      attachment: log.id,
      reason: 'refused',
      sentence: 'Slack refused the download (HTTP 403).',
    });
    expect(logLines.join('\n')).not.toContain(h.standIn.token);
  });
});
