import { request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

export type GitAccess = 'read' | 'write';

/**
 * G3: the credential only the gateway holds. `authorization` returns the value of the
 * Authorization header for upstream requests about `repo` ("owner/name"): GitHub's
 * `x-access-token` basic scheme with a token (a fixed GITHUB_TOKEN, or an App installation
 * token scoped to the repository and `contents`).
 */
export interface UpstreamAuth {
  authorization(repo: string, access: GitAccess): Promise<string>;
}

export const basicAccessToken = (token: string): string =>
  `Basic ${Buffer.from(`x-access-token:${token}`).toString('base64')}`;

/** GITHUB_TOKEN: one token for every repository (a simple set-up). */
export class StaticTokenAuth implements UpstreamAuth {
  constructor(private readonly token: string) {}
  async authorization(): Promise<string> {
    return basicAccessToken(this.token);
  }
}

/** Request headers passed upstream as they came (never the client's Authorization). */
const PASSED = [
  'content-type',
  'accept',
  'git-protocol',
  'user-agent',
  'content-encoding',
  'accept-encoding',
];

export function upstreamHeaders(
  incoming: IncomingHttpHeaders,
  options: { drop?: readonly string[]; contentLength?: number | undefined },
): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of PASSED) {
    const value = incoming[name];
    if (typeof value === 'string' && !(options.drop ?? []).includes(name)) headers[name] = value;
  }
  if (options.contentLength !== undefined) headers['content-length'] = String(options.contentLength);
  return headers;
}

/** One request to the upstream git server; resolves with its response (body unread). */
export function sendUpstream(options: {
  baseUrl: string;
  path: string;
  method: string;
  headers: Record<string, string>;
  authorization: string;
  body: Readable | Buffer | null;
  signal?: AbortSignal;
}): Promise<IncomingMessage> {
  const url = new URL(options.path, options.baseUrl.endsWith('/') ? options.baseUrl : `${options.baseUrl}/`);
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(
      url,
      {
        method: options.method,
        headers: { ...options.headers, authorization: options.authorization },
        ...(options.signal ? { signal: options.signal } : {}),
      },
      resolve,
    );
    req.on('error', reject);
    const { body } = options;
    if (body === null) req.end();
    else if (Buffer.isBuffer(body)) req.end(body);
    else pipeline(body, req).catch(reject);
  });
}
