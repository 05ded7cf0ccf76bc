import type { DownloadLimits, DownloadResult } from './attachment-fetcher';

/** One file to fetch over HTTP(S) for a chat platform (P13). */
export interface DownloadRequest {
  url: string;
  /** Sent with the request only (never logged, never in a sentence). */
  headers?: Readonly<Record<string, string>>;
  /** Who serves the file, as the sentences name it ("Slack", "Discord"). */
  service: string;
}

/**
 * P13: one bounded HTTP download (at most `maxBytes`, within `timeoutMs`, no redirect followed:
 * a credential must not follow one elsewhere). The front ends decide which links they fetch and
 * with what credential; `src/adapters` does the fetching. Never throws: a failure is a
 * `DownloadResult` whose sentence names no URL query and no header.
 */
export interface BoundedDownloader {
  download(request: DownloadRequest, limits: DownloadLimits): Promise<DownloadResult>;
}
