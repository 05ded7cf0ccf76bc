import type { IncomingMessage, ServerResponse } from 'node:http';
import type { McpOAuth } from '../adapters/mcp-oauth/mcp-oauth';
import { CALLBACK_PATH } from '../adapters/mcp-oauth/oauth-settings';
import { AppError } from '../core/errors';
import type { Logger } from '../core/ports/logger';

/**
 * E5: `GET /mcp/oauth/callback?code&state` on the web role: where an authorization server
 * sends a person back. The code is exchanged and the tokens stored for the link's owner; a
 * small page says so. A bad, expired or used state is a 400 with the sentence why, logged
 * (never the code or the state: the address carries them). False for any other request.
 */
export function handleMcpOAuthCallback(
  request: IncomingMessage,
  response: ServerResponse,
  oauth: Pick<McpOAuth, 'complete'>,
  logger: Logger,
): boolean {
  const url = new URL(request.url ?? '/', 'http://summon.invalid');
  if (url.pathname !== CALLBACK_PATH) return false;
  if (request.method !== 'GET') {
    page(response, 405, 'Not this way', 'Authorization servers send people back here with a GET request.');
    return true;
  }
  void oauth.complete(url.searchParams).then(
    (done) => page(response, 200, 'Authorized', `Summon can now use ${done.server}; you can close this tab.`),
    (error: unknown) => {
      const sentence =
        error instanceof AppError ? error.message : 'Summon could not complete this authorization.';
      logger.warn(
        { reason: error instanceof Error ? error.message : String(error) },
        'E5: an OAuth callback was refused',
      );
      page(response, error instanceof AppError ? 400 : 500, 'Not authorized', sentence);
    },
  );
  return true;
}

function page(response: ServerResponse, status: number, title: string, sentence: string): void {
  response.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    // The address holds the code and the state: no other site is told it.
    'referrer-policy': 'no-referrer',
  });
  response.end(
    `<!doctype html><html><head><meta charset="utf-8"><title>Summon: ${htmlText(title)}</title></head>` +
      `<body><p>${htmlText(sentence)}</p></body></html>`,
  );
}

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
const htmlText = (text: string): string => text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
