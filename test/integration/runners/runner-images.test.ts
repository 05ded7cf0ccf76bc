import { AnthropicRunner } from '../../../src/adapters/runners/anthropic-runner';
import { OpenAiRunner } from '../../../src/adapters/runners/openai-runner';
import type { ImageInput } from '../../../src/core/model/attachment';
import { TINY_PNG } from '../../support/attachment-files';
import { collectEvents, runnerRequest, testAgent } from '../../support/runner-request';
import { AnthropicStandIn } from '../../support/stand-ins/anthropic-stand-in';
import { OpenAiStandIn } from '../../support/stand-ins/openai-stand-in';

const ANTHROPIC_KEY = 'sk-ant-api03-RUNNER-IMAGES-3e7f';
const OPENAI_KEY = 'sk-test-RUNNER-IMAGES-0c4d';

const screenshot: ImageInput = {
  name: 'screenshot.png',
  mediaType: 'image/png',
  base64: TINY_PNG.toString('base64'),
};
/** PNG bytes announced as JPEG: the APIs refuse a media type that does not match the data. */
const mislabelled: ImageInput = { ...screenshot, mediaType: 'image/jpeg' };

const messagesOf = (body: unknown): unknown[] =>
  (body as { messages?: unknown[] } | undefined)?.messages ?? [];

const request = (images: readonly ImageInput[]) =>
  runnerRequest(
    {
      agent: testAgent({ modelId: 'llama3.1' }),
      system: 'You are engineer.',
      prompt: 'What does the screenshot show?',
    },
    { images },
  );

describe('P13: the built-in runners give attached images to the model', () => {
  it('P13: the Anthropic runner sends each image as a base64 image block, labelled, before the prompt', async () => {
    const standIn = await AnthropicStandIn.start({ apiKey: ANTHROPIC_KEY });
    try {
      const runner = new AnthropicRunner({
        apiKey: ANTHROPIC_KEY,
        baseUrl: standIn.url,
        defaultModel: 'claude-sonnet-4-6',
        maxRetries: 0,
      });
      expect(runner.takesImages).toBe(true);
      const events = await collectEvents(runner.run(request([screenshot])));
      expect(events.at(-1)).toEqual({ type: 'final', text: 'ok' });
      expect(messagesOf(standIn.requests[0]?.body)[0]).toEqual({
        role: 'user',
        content: [
          { type: 'text', text: 'Attached image: screenshot.png' },
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: screenshot.base64 } },
          { type: 'text', text: 'What does the screenshot show?', cache_control: { type: 'ephemeral' } },
        ],
      });

      // The stand-in checks images as the API does: a type that does not match the bytes is refused.
      const refused = await collectEvents(runner.run(request([mislabelled])));
      expect(standIn.requests[1]?.status).toBe(400);
      expect(refused.at(-1)).toMatchObject({ type: 'error' });
      expect(JSON.stringify(refused.at(-1))).toContain(
        'Image does not match the provided media type image/jpeg',
      );
    } finally {
      await standIn.close();
    }
  });

  it('P13: the OpenAI-compatible runner sends each image as an image_url part with a data URL', async () => {
    const standIn = await OpenAiStandIn.start({ apiKey: OPENAI_KEY, models: ['llama3.1'] });
    try {
      const runner = new OpenAiRunner({
        baseUrl: standIn.baseUrl,
        apiKey: OPENAI_KEY,
        defaultModel: undefined,
        maxRetries: 0,
      });
      expect(runner.takesImages).toBe(true);
      const events = await collectEvents(runner.run(request([screenshot])));
      expect(events.at(-1)).toMatchObject({ type: 'final' });
      const user = standIn.requests[0]?.messages?.[1];
      expect(user?.content).toBe('Attached image: screenshot.png\nWhat does the screenshot show?');
      expect(user?.images).toEqual([{ mediaType: 'image/png', bytes: TINY_PNG }]);
      expect(
        (messagesOf(standIn.requests[0]?.body)[1] as { content?: unknown } | undefined)?.content,
      ).toEqual([
        { type: 'text', text: 'Attached image: screenshot.png' },
        { type: 'image_url', image_url: { url: `data:image/png;base64,${screenshot.base64}` } },
        { type: 'text', text: 'What does the screenshot show?' },
      ]);

      const refused = await collectEvents(runner.run(request([mislabelled])));
      expect(refused.at(-1)).toMatchObject({ type: 'error' });
      expect(JSON.stringify(refused.at(-1))).toContain('image_url.url');
    } finally {
      await standIn.close();
    }
  });

  it('P13, A14: without images the prompt is sent as one text block', async () => {
    const standIn = await AnthropicStandIn.start({ apiKey: ANTHROPIC_KEY });
    try {
      const runner = new AnthropicRunner({
        apiKey: ANTHROPIC_KEY,
        baseUrl: standIn.url,
        defaultModel: 'claude-sonnet-4-6',
        maxRetries: 0,
      });
      await collectEvents(runner.run(request([])));
      // A14: one text block (the same to the prompt cache as a plain string), with its breakpoint
      expect(messagesOf(standIn.requests[0]?.body)[0]).toEqual({
        role: 'user',
        content: [
          { type: 'text', text: 'What does the screenshot show?', cache_control: { type: 'ephemeral' } },
        ],
      });
    } finally {
      await standIn.close();
    }
  });
});
