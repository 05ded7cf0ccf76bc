/** P13: how much of a message's attachments reaches the agent. */
export interface AttachmentLimits {
  /** An image larger than this is not shown to the model (Anthropic refuses images over 5 MB); it is saved instead. */
  imageBytes: number;
  /** The characters of one text file shown in the prompt; the rest is cut with a sentence. */
  textChars: number;
  /** The characters of all text files together in the prompt. */
  totalTextChars: number;
  /** Any file larger than this is not fetched at all. */
  fileBytes: number;
  /** All downloads of one message together. */
  totalBytes: number;
  /** One download, from the request to its last byte. */
  downloadTimeoutMs: number;
}

export const DEFAULT_ATTACHMENT_LIMITS: AttachmentLimits = {
  imageBytes: 5 * 1024 * 1024,
  textChars: 20_000,
  totalTextChars: 60_000,
  fileBytes: 25 * 1024 * 1024,
  totalBytes: 50 * 1024 * 1024,
  downloadTimeoutMs: 30_000,
};

/** `1.2 MB`, `340 KB`, `12 bytes`: sizes as the prompt and the sentences name them. */
export function describeSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} byte${bytes === 1 ? '' : 's'}`;
  if (bytes < 1024 * 1024) return `${trimmed(bytes / 1024)} KB`;
  return `${trimmed(bytes / (1024 * 1024))} MB`;
}

const trimmed = (value: number): string =>
  value >= 100 ? value.toFixed(0) : value.toFixed(1).replace(/\.0$/, '');
