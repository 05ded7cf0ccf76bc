import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

/** A file a person attached, as the stand-in's CDN keeps it. */
interface StoredFile {
  channelId: string;
  id: string;
  filename: string;
  contentType: string;
  bytes: Buffer;
}

/** One request for an attachment's URL, and how the CDN answered it. */
export interface CdnDownload {
  attachmentId: string | null;
  status: number;
  authorization: string | undefined;
}

const ATTACHMENT_PATH = /^\/attachments\/([0-9]+)\/([0-9]+)\/([^/]+)$/;
/** Discord's signed links expire after about a day. */
const LINK_LIFETIME_SECONDS = 24 * 60 * 60;
const GONE = 'This content is no longer available.';

/**
 * The stand-in's CDN, answering attachment links as cdn.discordapp.com does: a link carries
 * its signature (`ex` expiry and `is` issue time in hex seconds, `hm` an HMAC of the path and
 * both); the file with its type and length for a valid, unexpired link; Discord's "no longer
 * available" 404 for a link unsigned, tampered with or expired. No token is asked for (the
 * signed link is the credential).
 */
export class DiscordCdn {
  readonly downloads: CdnDownload[] = [];
  private readonly files = new Map<string, StoredFile>();
  private readonly secret = Buffer.from('discord-cdn-stand-in-signing-key');

  constructor(private readonly baseUrl: () => string) {}

  /** A file attached to a message: the attachment object a MESSAGE_CREATE carries. */
  attach(
    channelId: string,
    id: string,
    file: { filename: string; contentType: string; bytes: Buffer; size?: number },
    now = Date.now(),
  ): Record<string, unknown> {
    this.files.set(id, { channelId, id, ...file });
    const path = `/attachments/${channelId}/${id}/${encodeURIComponent(file.filename)}`;
    const url = `${this.baseUrl()}${this.signed(path, Math.floor(now / 1000))}`;
    return {
      id,
      filename: file.filename,
      size: file.size ?? file.bytes.length,
      url,
      proxy_url: url,
      content_type: file.contentType,
    };
  }

  /** A link to `path` issued at `issuedAt` (seconds), signed as the CDN checks it. */
  signed(path: string, issuedAt: number): string {
    const ex = (issuedAt + LINK_LIFETIME_SECONDS).toString(16);
    const is = issuedAt.toString(16);
    return `${path}?ex=${ex}&is=${is}&hm=${this.mac(path, ex, is)}&`;
  }

  /** Answers a CDN request; false when the request is not for the CDN. */
  handle(req: IncomingMessage, res: ServerResponse): boolean {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (!url.pathname.startsWith('/attachments/')) return false;
    const match = ATTACHMENT_PATH.exec(url.pathname);
    const answer = (status: number, headers: Record<string, string | number>, body: Buffer | string) => {
      this.downloads.push({
        attachmentId: match?.[2] ?? null,
        status,
        authorization: req.headers.authorization,
      });
      res.writeHead(status, headers);
      res.end(body);
    };
    const ex = url.searchParams.get('ex') ?? '';
    const is = url.searchParams.get('is') ?? '';
    const hm = url.searchParams.get('hm') ?? '';
    const expected = Buffer.from(this.mac(url.pathname, ex, is));
    const valid =
      hm.length === expected.length &&
      timingSafeEqual(Buffer.from(hm), expected) &&
      Number.parseInt(ex, 16) * 1000 > Date.now();
    const file = match === null ? undefined : this.files.get(match[2] ?? '');
    if (!valid || file === undefined || file.channelId !== match?.[1]) {
      answer(404, { 'content-type': 'text/plain; charset=utf-8' }, GONE);
      return true;
    }
    answer(200, { 'content-type': file.contentType, 'content-length': file.bytes.length }, file.bytes);
    return true;
  }

  private mac(path: string, ex: string, is: string): string {
    return createHmac('sha256', this.secret).update(`${path}|${ex}|${is}`).digest('hex');
  }
}
