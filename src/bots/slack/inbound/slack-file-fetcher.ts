import { FileHost } from '../../../core/attachments/file-host';
import type { AttachmentRef } from '../../../core/model/attachment';
import type {
  AttachmentFetcher,
  DownloadLimits,
  DownloadResult,
} from '../../../core/ports/attachment-fetcher';
import type { BoundedDownloader } from '../../../core/ports/bounded-downloader';

/**
 * P13: a file attached to a Slack message, downloaded from its `url_private` with the bot
 * token (`Authorization: Bearer`, scope `files:read`). The token goes only to Slack's own
 * hosts (`*.slack.com` over HTTPS) or the configured Web API's origin (tests, Slack-compatible
 * servers), never to a link elsewhere. Slack answers a refused token with a redirect or its
 * sign-in page, not a 401: both are a refusal here.
 */
export class SlackFileFetcher implements AttachmentFetcher {
  private readonly fileHost: FileHost;

  constructor(
    private readonly downloader: BoundedDownloader,
    private readonly botToken: string,
    apiUrl: string | undefined,
  ) {
    this.fileHost = new FileHost(
      apiUrl,
      (hostname) => hostname === 'slack.com' || hostname.endsWith('.slack.com'),
    );
  }

  async download(ref: AttachmentRef, limits: DownloadLimits): Promise<DownloadResult> {
    if (ref.url === null || !this.fileHost.serves(ref.url)) {
      return {
        ok: false,
        reason: 'refused',
        sentence: "its link is not on Slack's file host, and Summon sends its Slack token nowhere else.",
      };
    }
    const result = await this.downloader.download(
      { url: ref.url, headers: { Authorization: `Bearer ${this.botToken}` }, service: 'Slack' },
      limits,
    );
    if (result.ok && isHtml(result.mimeType) && !isHtml(ref.mimeType)) {
      return {
        ok: false,
        reason: 'refused',
        sentence:
          'Slack answered with its sign-in page instead of the file (the app needs the files:read scope).',
      };
    }
    return result;
  }
}

const isHtml = (type: string | null): boolean => (type ?? '').toLowerCase().startsWith('text/html');
