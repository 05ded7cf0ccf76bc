import type { IncomingMessage, ServerResponse } from 'node:http';

/** A file a person shared, as the stand-in keeps it. */
interface HostedFile {
  id: string;
  name: string;
  mimetype: string;
  bytes: Buffer;
}

/** One request for a file's `url_private`, and how the stand-in answered it. */
export interface FileDownload {
  fileId: string | null;
  status: number;
  authorization: string | undefined;
}

const FILES_PATH = /^\/files-pri\/([A-Z0-9]+)-([A-Z0-9]+)\/([^/?]+)$/;

/**
 * The stand-in's file host, answering `url_private` as files.slack.com does: the file with its
 * type and length for `Authorization: Bearer <bot token>` when the token has `files:read`; a
 * redirect to the sign-in page without a token; 403 for a wrong token; Slack's sign-in page
 * (HTML, status 200) for a token without `files:read`; 404 for a file it does not hold. Files
 * are added by tests with `add`, which answers the file object a message event carries.
 */
export class SlackFileHost {
  readonly downloads: FileDownload[] = [];
  /** The token the host accepts, when it is not the bot token (a token revoked for files). */
  acceptedToken: string | null = null;
  private readonly files = new Map<string, HostedFile>();
  private counter = 0;

  constructor(
    private readonly options: {
      teamId: string;
      token: () => string;
      baseUrl: () => string;
      /** The bot token's scopes; undefined: all of them. */
      scopes: () => readonly string[] | undefined;
    },
  ) {}

  /** A shared file: the file object (`@slack/types` `File` fields) to put in an event's `files`. */
  add(file: { name: string; mimetype: string; bytes: Buffer; size?: number }): Record<string, unknown> {
    this.counter += 1;
    const id = `F0FILE${String(this.counter).padStart(4, '0')}`;
    this.files.set(id, { id, name: file.name, mimetype: file.mimetype, bytes: file.bytes });
    const path = `/files-pri/${this.options.teamId}-${id}/${encodeURIComponent(file.name)}`;
    return {
      id,
      created: 1_764_700_000,
      timestamp: 1_764_700_000,
      name: file.name,
      title: file.name,
      mimetype: file.mimetype,
      filetype: file.name.split('.').pop() ?? 'binary',
      pretty_type: file.mimetype,
      user: 'U0DANA0001',
      mode: 'hosted',
      editable: false,
      is_external: false,
      external_type: '',
      is_public: true,
      public_url_shared: false,
      display_as_bot: false,
      username: '',
      size: file.size ?? file.bytes.length,
      url_private: `${this.options.baseUrl()}${path}`,
      url_private_download: `${this.options.baseUrl()}${path.replace(/\/([^/]+)$/, '/download/$1')}`,
      permalink: `https://acme.slack.com/files/U0DANA0001/${id}/${encodeURIComponent(file.name)}`,
      file_access: 'visible',
    };
  }

  /** Answers a file request; false when the request is not for the file host. */
  handle(req: IncomingMessage, res: ServerResponse): boolean {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const path = url.pathname.replace('/download/', '/');
    if (!path.startsWith('/files-pri/')) return false;
    const match = FILES_PATH.exec(path);
    const authorization = req.headers.authorization;
    const answer = (status: number, headers: Record<string, string | number>, body: Buffer | string) => {
      this.downloads.push({ fileId: match?.[2] ?? null, status, authorization });
      res.writeHead(status, headers);
      res.end(body);
    };
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      answer(405, {}, '');
      return true;
    }
    if (authorization === undefined || authorization === '') {
      // Slack sends a client with no credential to its sign-in page.
      answer(302, { location: `https://acme.slack.com/?redir=${encodeURIComponent(path)}` }, '');
      return true;
    }
    if (authorization !== `Bearer ${this.acceptedToken ?? this.options.token()}`) {
      answer(403, { 'content-type': 'text/plain' }, 'Forbidden');
      return true;
    }
    const scopes = this.options.scopes();
    if (scopes !== undefined && !scopes.includes('files:read')) {
      answer(
        200,
        { 'content-type': 'text/html; charset=utf-8' },
        '<!DOCTYPE html><title>Slack</title><p>Sign in</p>',
      );
      return true;
    }
    const file =
      match === null || match[1] !== this.options.teamId ? undefined : this.files.get(match[2] ?? '');
    if (file === undefined) {
      answer(404, { 'content-type': 'text/plain' }, 'Not Found');
      return true;
    }
    answer(200, { 'content-type': file.mimetype, 'content-length': file.bytes.length }, file.bytes);
    return true;
  }
}
