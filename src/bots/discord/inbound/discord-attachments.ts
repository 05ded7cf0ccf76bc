import type { Attachment, Collection } from 'discord.js';
import { FileHost } from '../../../core/attachments/file-host';
import { type AttachmentRef, MAX_ATTACHMENTS_PER_MESSAGE } from '../../../core/model/attachment';
import type {
  AttachmentFetcher,
  DownloadLimits,
  DownloadResult,
} from '../../../core/ports/attachment-fetcher';
import type { BoundedDownloader } from '../../../core/ports/bounded-downloader';

/** Discord's own hosts for attachments (its CDN and media proxy). */
const DISCORD_FILE_HOSTS = new Set(['cdn.discordapp.com', 'media.discordapp.net']);

/** P13, T4: a message's attachments as recorded before the ack (nothing is fetched). */
export function discordAttachmentRefs(attachments: Collection<string, Attachment>): AttachmentRef[] {
  return [...attachments.values()].slice(0, MAX_ATTACHMENTS_PER_MESSAGE).map((attachment) => ({
    id: attachment.id,
    name: attachment.name,
    size: attachment.size,
    mimeType: attachment.contentType,
    url: attachment.url,
  }));
}

/**
 * P13: an attachment downloaded from its CDN link. The link itself is the credential (Discord
 * signs it, `ex`/`is`/`hm`, and it expires); the bot token is never sent. Only Discord's hosts
 * (or the configured API's origin, in tests) are fetched from.
 */
export class DiscordAttachmentFetcher implements AttachmentFetcher {
  private readonly fileHost: FileHost;

  constructor(
    private readonly downloader: BoundedDownloader,
    apiUrl: string | undefined,
  ) {
    this.fileHost = new FileHost(apiUrl, (hostname) => DISCORD_FILE_HOSTS.has(hostname));
  }

  async download(ref: AttachmentRef, limits: DownloadLimits): Promise<DownloadResult> {
    if (ref.url === null || !this.fileHost.serves(ref.url)) {
      return { ok: false, reason: 'refused', sentence: "its link is not on Discord's file host." };
    }
    const result = await this.downloader.download({ url: ref.url, service: 'Discord' }, limits);
    if (!result.ok && result.sentence.includes('HTTP 404')) {
      // Discord answers an expired or unsigned link so.
      return {
        ...result,
        sentence: 'Discord no longer serves it (HTTP 404: the link expired or was not signed).',
      };
    }
    return result;
  }
}
