import type { AttachmentRef } from '../model/attachment';

/** P13: how much one download may take. */
export interface DownloadLimits {
  /** More bytes than this and the download is refused (`too_large`). */
  maxBytes: number;
  /** The whole download (connect, headers, body) ends after this many milliseconds. */
  timeoutMs: number;
  signal?: AbortSignal;
}

/** A downloaded file, or why it could not be (a sentence for the prompt and the log: no secret). */
export type DownloadResult =
  | { ok: true; bytes: Uint8Array; mimeType: string | null }
  | { ok: false; reason: 'too_large' | 'refused' | 'failed'; sentence: string };

/**
 * P13: a chat platform's way to fetch a file attached to a person's message (Slack: the bot
 * token; Discord: the signed CDN link). Never throws: a failure is a `DownloadResult`.
 */
export interface AttachmentFetcher {
  download(ref: AttachmentRef, limits: DownloadLimits): Promise<DownloadResult>;
}

/**
 * P13: where a file the model is not shown is kept for the agent: its run's working folder.
 * `save` answers the path relative to `dir` (under `attachments/`); it replaces a file of the
 * same name (a resumed turn saves the same files again).
 */
export interface AttachmentShelf {
  save(dir: string, fileName: string, bytes: Uint8Array): Promise<string>;
}
