import type { ImageMediaType } from '../model/attachment';

/** P13: what reaches the model as what: an image, text, or a file saved for the agent. */
export type AttachmentKind =
  | { kind: 'image'; mediaType: ImageMediaType }
  | { kind: 'text' }
  | { kind: 'file' };

const startsWith = (bytes: Uint8Array, prefix: readonly number[], at = 0): boolean =>
  prefix.every((byte, index) => bytes[at + index] === byte);

/** The image type the bytes themselves are (their magic numbers), whatever the name says. */
export function sniffImage(bytes: Uint8Array): ImageMediaType | null {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(bytes, [0x47, 0x49, 0x46, 0x38])) return 'image/gif';
  if (startsWith(bytes, [0x52, 0x49, 0x46, 0x46]) && startsWith(bytes, [0x57, 0x45, 0x42, 0x50], 8))
    return 'image/webp';
  return null;
}

const TEXT_TYPES = new Set([
  'application/json',
  'application/xml',
  'application/yaml',
  'application/x-yaml',
  'application/javascript',
  'application/typescript',
  'application/x-sh',
  'application/sql',
  'application/toml',
  'application/x-ndjson',
  'application/csv',
]);

/** Binary formats that may happen to decode as text; never shown as text. */
const BINARY_TYPE = /^(image|audio|video|font)\/|^application\/(pdf|zip|gzip|x-tar|octet-stream|vnd\.)/;

/** Valid UTF-8 with no NUL byte and few control characters: text a person could read. */
export function looksLikeText(bytes: Uint8Array): boolean {
  if (bytes.includes(0)) return false;
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return false;
  }
  let control = 0;
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    if (code < 0x20 && char !== '\n' && char !== '\r' && char !== '\t' && char !== '\f') control++;
  }
  return control <= text.length / 100;
}

/**
 * P13: an image when its bytes are one the model APIs take; text when its declared type is
 * text (or unknown) and its bytes are readable UTF-8; any other file is saved for the agent.
 */
export function classifyAttachment(bytes: Uint8Array, declaredType: string | null): AttachmentKind {
  const image = sniffImage(bytes);
  if (image !== null) return { kind: 'image', mediaType: image };
  const type = (declaredType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (BINARY_TYPE.test(type)) return { kind: 'file' };
  const declaredText =
    type.startsWith('text/') || TEXT_TYPES.has(type) || type.endsWith('+json') || type.endsWith('+xml');
  if ((declaredText || type === '') && looksLikeText(bytes)) return { kind: 'text' };
  return { kind: 'file' };
}
