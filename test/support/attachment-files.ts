/** A real 1×1 PNG (its magic number, IHDR, IDAT, IEND): what a screenshot is to the checks. */
export const TINY_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

/** A log file as a person would share it. */
export const SERVER_LOG = Buffer.from('09:14:02 ERROR db timeout after 30s\n09:14:03 retrying (1/3)\n');

/** A zip archive's first bytes (`PK\x03\x04`): neither an image nor text. */
export const ZIP_BYTES = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(60, 1)]);

/** The user message of the first Messages API request the stand-in received. */
export const firstUserContent = (body: unknown): unknown =>
  (body as { messages?: { content?: unknown }[] } | undefined)?.messages?.[0]?.content;
