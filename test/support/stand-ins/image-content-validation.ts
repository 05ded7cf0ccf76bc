import { sniffImage } from '../../../src/core/attachments/attachment-kind';

const MEDIA_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'];
/** The Messages API's limit on one base64 image. */
const ANTHROPIC_MAX_IMAGE_BYTES = 5 * 1024 * 1024;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Base64 image data as the APIs check it: valid base64, bytes of the named type. */
function imageDataProblem(data: unknown, mediaType: string): { problem: string } | { bytes: Buffer } {
  if (typeof data !== 'string' || data === '' || data.length % 4 !== 0 || !BASE64.test(data)) {
    return { problem: 'invalid base64 data' };
  }
  const bytes = Buffer.from(data, 'base64');
  const actual = sniffImage(bytes);
  if (actual === null) return { problem: 'Could not process image' };
  if (actual !== mediaType) {
    return { problem: `Image does not match the provided media type ${mediaType}` };
  }
  return { bytes };
}

/**
 * The Messages API's checks of an `image` content block, in its words: only in a user
 * message, a base64 or url source, one of four media types, base64 that decodes to an image
 * of that type, at most 5 MB. Undefined when valid.
 */
export function anthropicImageProblem(
  block: Record<string, unknown>,
  at: string,
  role: unknown,
): string | undefined {
  if (role !== 'user') return `${at}: image content blocks are only allowed in \`user\` messages`;
  const source = block.source;
  if (!isObject(source)) return `${at}.image.source: Field required`;
  if (source.type === 'url') {
    return typeof source.url === 'string' && /^https?:\/\//.test(source.url)
      ? undefined
      : `${at}.image.source.url.url: Input should be a valid URL`;
  }
  if (source.type !== 'base64') {
    return `${at}.image.source: Input tag '${String(source.type)}' found using 'type' does not match any of the expected tags: 'base64', 'url', 'file'`;
  }
  if (typeof source.media_type !== 'string' || !MEDIA_TYPES.includes(source.media_type)) {
    return `${at}.image.source.base64.media_type: Input should be 'image/jpeg', 'image/png', 'image/gif' or 'image/webp'`;
  }
  const data = imageDataProblem(source.data, source.media_type);
  if ('problem' in data) return `${at}.image.source.base64: ${data.problem}`;
  if (data.bytes.length > ANTHROPIC_MAX_IMAGE_BYTES) {
    return `${at}.image.source.base64: image exceeds 5 MB maximum: ${data.bytes.length} bytes > ${ANTHROPIC_MAX_IMAGE_BYTES} bytes`;
  }
  return undefined;
}

/** An OpenAI user message's content parts: what the stand-in keeps of them. */
export interface OpenAiUserParts {
  text: string;
  images: { mediaType: string; bytes: Buffer }[];
}

/**
 * Chat Completions' checks of a user message's content parts, in its words: `text` parts with
 * a string, `image_url` parts whose URL is http(s) or a base64 data URL of an image type (the
 * bytes that type). Returns the joined text and the images, or the refusal.
 */
export function openAiUserParts(content: unknown[], index: number): OpenAiUserParts | string {
  const texts: string[] = [];
  const images: OpenAiUserParts['images'] = [];
  if (content.length === 0)
    return `Invalid 'messages[${index}].content': empty array. Expected an array with minimum length 1, but got an empty array instead.`;
  for (const [p, part] of content.entries()) {
    const at = `messages[${index}].content[${p}]`;
    if (!isObject(part)) return `Invalid type for '${at}': expected an object.`;
    if (part.type === 'text') {
      if (typeof part.text !== 'string') return `Missing required parameter: '${at}.text'.`;
      texts.push(part.text);
      continue;
    }
    if (part.type !== 'image_url') {
      return `Invalid value: '${String(part.type)}'. Supported values are: 'text', 'image_url', 'input_audio', 'refusal', 'audio', and 'file'.`;
    }
    const url = isObject(part.image_url) ? part.image_url.url : undefined;
    if (typeof url !== 'string') return `Missing required parameter: '${at}.image_url.url'.`;
    if (/^https?:\/\//.test(url)) continue;
    const data = /^data:(image\/[a-z]+);base64,(.*)$/s.exec(url);
    const decoded = data === null ? null : imageDataProblem(data[2], data[1] ?? '');
    if (data === null || decoded === null || 'problem' in decoded) {
      return `Invalid '${at}.image_url.url'. Expected a base64-encoded data URL with an image MIME type (e.g. 'data:image/png;base64,aW1nIGJ5dGVzIGhlcmU='), but got an invalid value.`;
    }
    images.push({ mediaType: data[1] ?? '', bytes: decoded.bytes });
  }
  return { text: texts.join('\n'), images };
}
