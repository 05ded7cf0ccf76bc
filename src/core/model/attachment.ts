/**
 * P13: a file attached to a person's message, as the platform described it when the message
 * arrived (T4: recorded in the inbox row and on the stored message; fetched only at the turn's
 * start, never before the ack).
 */
export interface AttachmentRef {
  /** The platform's id of the file (Slack `F…`, Discord's attachment id). */
  id: string;
  /** The file's name as the person gave it (never trusted as a path). */
  name: string;
  /** Bytes, as the platform reported them. */
  size: number;
  /** The platform's media type, if it named one. */
  mimeType: string | null;
  /** Where the platform serves it (Slack `url_private`, Discord's CDN URL); null when it gave none. */
  url: string | null;
  /** Why the platform gave no URL (Slack `mode`: `hidden_by_limit`, `tombstone`, …). */
  unavailable?: string;
}

/** At most this many attachments of one message are recorded (Slack and Discord allow ten). */
export const MAX_ATTACHMENTS_PER_MESSAGE = 10;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Stored attachment descriptions read defensively (jsonb written by an older shape, or by
 * hand): what cannot be recognised is left out, never a malformed record.
 */
export function toAttachmentRefs(value: unknown): AttachmentRef[] {
  if (!Array.isArray(value)) return [];
  return value.slice(0, MAX_ATTACHMENTS_PER_MESSAGE).flatMap((item): AttachmentRef[] => {
    if (!isRecord(item)) return [];
    const { id, name, size, mimeType, url, unavailable } = item;
    if (typeof id !== 'string' || typeof name !== 'string') return [];
    if (typeof size !== 'number' || !Number.isFinite(size) || size < 0) return [];
    return [
      {
        id,
        name,
        size,
        mimeType: typeof mimeType === 'string' ? mimeType : null,
        url: typeof url === 'string' ? url : null,
        ...(typeof unavailable === 'string' ? { unavailable } : {}),
      },
    ];
  });
}

/** The image types the model APIs take as image input (Anthropic and OpenAI alike). */
export const IMAGE_MEDIA_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;
export type ImageMediaType = (typeof IMAGE_MEDIA_TYPES)[number];

/** P13: an attached image handed to a runner that takes image input. */
export interface ImageInput {
  name: string;
  /** Read from the file's own bytes (the APIs refuse a type that does not match them). */
  mediaType: ImageMediaType;
  base64: string;
}
