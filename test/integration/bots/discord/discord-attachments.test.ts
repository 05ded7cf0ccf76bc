import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { anthropicAgent } from '../../../support/anthropic-agent';
import { firstUserContent, SERVER_LOG, TINY_PNG, ZIP_BYTES } from '../../../support/attachment-files';
import { type DiscordHarness, openDiscordHarness } from '../../../support/discord-harness';
import { AnthropicStandIn } from '../../../support/stand-ins/anthropic-stand-in';

const ANTHROPIC_KEY = 'sk-ant-api03-DISCORD-ATTACHMENTS-8b3c';

type Block = { type: string; text?: string; source?: { media_type: string; data: string } };

const promptOf = (content: unknown): string =>
  typeof content === 'string'
    ? content
    : ((content as Block[]).find((b) => b.type === 'text' && b.text?.includes('## Prompt'))?.text ?? '');

describe('P13: files attached in Discord reach the agent (real discord.js, the CDN stand-in, the Messages API stand-in)', () => {
  let h: DiscordHarness;
  let anthropic: AnthropicStandIn;

  beforeEach(async () => {
    anthropic = await AnthropicStandIn.start({ apiKey: ANTHROPIC_KEY });
    anthropic.reply = () => ({ kind: 'stream', blocks: [{ type: 'text', chunks: ['Looked at it.'] }] });
    h = await openDiscordHarness(anthropicAgent(anthropic, ANTHROPIC_KEY));
  });
  afterEach(async () => {
    await h?.close();
    await anthropic.close();
    expect(h.standIn.refusals).toEqual([]);
  });

  it('P13: an image reaches the model as an image block, a text file as text, a zip is saved by name; the CDN link is fetched without the bot token', async () => {
    const asked = h.standIn.sayWithFiles(h.people.dana, h.channel, '@engineer why does it fail?', [
      { filename: 'screenshot.png', contentType: 'image/png', bytes: TINY_PNG },
      { filename: 'server.log', contentType: 'text/plain; charset=utf-8', bytes: SERVER_LOG },
      { filename: 'report.zip', contentType: 'application/zip', bytes: ZIP_BYTES },
    ]);
    await h.waitInThread(asked, (m) => m.content === 'Looked at it.');

    const content = firstUserContent(anthropic.requests[0]?.body) as Block[];
    expect(content[0]).toEqual({ type: 'text', text: 'Attached image: screenshot.png' });
    expect(content[1]).toMatchObject({
      type: 'image',
      source: { media_type: 'image/png', data: TINY_PNG.toString('base64') },
    });
    const prompt = promptOf(content);
    expect(prompt).toContain(
      `- screenshot.png (image/png, ${TINY_PNG.length} bytes): shown to you as an image.`,
    );
    expect(prompt).toContain(
      `- server.log (text/plain; charset=utf-8, ${SERVER_LOG.length} bytes): its text follows below.`,
    );
    expect(prompt).toContain('09:14:03 retrying (1/3)');
    expect(prompt).toContain(
      `- report.zip (application/zip, ${ZIP_BYTES.length} bytes): saved as \`attachments/report.zip\` in your working folder.`,
    );
    expect(await readFile(path.join(h.agentDir('engineer'), 'attachments', 'report.zip'))).toEqual(ZIP_BYTES);
    // Each link fetched once, signed, and the bot token never sent to the CDN.
    expect(h.standIn.cdn.downloads.map((d) => [d.status, d.authorization])).toEqual([
      [200, undefined],
      [200, undefined],
      [200, undefined],
    ]);
  });

  it('P13: an expired link fails cleanly: a sentence in the prompt and the log, and the turn still answers', async () => {
    const twoDaysAgo = Date.now() - 2 * 24 * 60 * 60 * 1000;
    const asked = h.standIn.sayWithFiles(
      h.people.dana,
      h.channel,
      '@engineer what is in this log?',
      [{ filename: 'server.log', contentType: 'text/plain', bytes: SERVER_LOG }],
      { linkIssuedAt: twoDaysAgo },
    );
    await h.waitInThread(asked, (m) => m.content === 'Looked at it.');

    expect(h.standIn.cdn.downloads.map((d) => d.status)).toEqual([404]);
    expect(promptOf(firstUserContent(anthropic.requests[0]?.body))).toContain(
      `- server.log (text/plain, ${SERVER_LOG.length} bytes): not fetched: Discord no longer serves it (HTTP 404: the link expired or was not signed).`,
    );
    expect(h.log()).toContain('attachment download failed');
    expect(h.log()).not.toContain(h.standIn.token);
  });
});
