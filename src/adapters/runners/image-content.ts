import type { ContentBlockParam } from '@anthropic-ai/sdk/resources/messages/messages';
import type { ChatCompletionContentPart } from 'openai/resources/chat/completions';
import type { ImageInput } from '../../core/model/attachment';

/**
 * P13: the turn's prompt with its attached images, as a Messages API user message's content:
 * each image labelled with its file name, images before the text (as Anthropic advises).
 * Without images, the plain text.
 */
export function anthropicPromptContent(
  text: string,
  images: readonly ImageInput[] | undefined,
): string | ContentBlockParam[] {
  if (images === undefined || images.length === 0) return text;
  return [
    ...images.flatMap((image): ContentBlockParam[] => [
      { type: 'text', text: `Attached image: ${image.name}` },
      { type: 'image', source: { type: 'base64', media_type: image.mediaType, data: image.base64 } },
    ]),
    { type: 'text', text },
  ];
}

/** P13: the same for an OpenAI-compatible server: `image_url` parts carrying data URLs. */
export function openAiPromptContent(
  text: string,
  images: readonly ImageInput[] | undefined,
): string | ChatCompletionContentPart[] {
  if (images === undefined || images.length === 0) return text;
  return [
    ...images.flatMap((image): ChatCompletionContentPart[] => [
      { type: 'text', text: `Attached image: ${image.name}` },
      { type: 'image_url', image_url: { url: `data:${image.mediaType};base64,${image.base64}` } },
    ]),
    { type: 'text', text },
  ];
}
