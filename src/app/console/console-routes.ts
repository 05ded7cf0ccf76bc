import type { IncomingMessage, ServerResponse } from 'node:http';
import { auditPage, streamAuditExport } from './audit-page';
import { handleAction } from './console-actions';
import { readCookies, SESSION_COOKIE } from './console-cookies';
import type { ConsoleDeps } from './console-deps';
import { layout, sendHtml, sentencePage } from './console-html';
import { CONSOLE_SCRIPT, streamLive } from './console-live';
import { agentsPage, approvalsPage, type PageBody, runsPage, usagePage } from './console-pages';
import type { ConsoleViewer } from './console-sessions';
import { handleSignIn, redeemLink, signInPage } from './sign-in-routes';

const PAGES: Record<string, (deps: ConsoleDeps, viewer: ConsoleViewer) => Promise<PageBody>> = {
  '/console': runsPage,
  '/console/approvals': approvalsPage,
  '/console/usage': usagePage,
  '/console/agents': agentsPage,
};

/**
 * O5: the web console on Summon's HTTP server, under `/console`. Sign-in and its callbacks and
 * the one-time link need no session; every other page needs one (an unsigned visitor is shown
 * the sign-in page), and every POST its CSRF token. False for paths outside `/console`.
 */
export function handleConsole(
  request: IncomingMessage,
  response: ServerResponse,
  deps: ConsoleDeps,
): boolean {
  const path = (request.url ?? '/').split('?')[0] ?? '/';
  if (path !== '/console' && !path.startsWith('/console/')) return false;
  if (request.method === 'GET' && path === '/console/console.js') {
    response.writeHead(200, {
      'content-type': 'text/javascript; charset=utf-8',
      'cache-control': 'no-cache',
    });
    response.end(CONSOLE_SCRIPT);
    return true;
  }
  if (request.method === 'GET' && handleSignIn(request, response, deps, path)) return true;
  void serve(request, response, deps, path).catch((error: unknown) => {
    deps.logger.error(
      { path, err: error instanceof Error ? error.message : String(error) },
      'O5: a console request failed',
    );
    if (!response.headersSent)
      sendHtml(
        response,
        500,
        sentencePage('Something went wrong', 'Summon could not show this page.', false),
      );
    else response.end();
  });
  return true;
}

async function serve(
  request: IncomingMessage,
  response: ServerResponse,
  deps: ConsoleDeps,
  path: string,
): Promise<void> {
  if (request.method === 'GET' && path === '/console/link') return redeemLink(request, response, deps);
  const token = deps.signer.verify(readCookies(request).get(SESSION_COOKIE));
  const viewer = await deps.sessions.viewer(token);
  if (request.method === 'POST') {
    if (viewer === null) {
      sendHtml(
        response,
        401,
        sentencePage(
          'Signed out',
          'You are not signed in (or your session ended), so nothing was done. Sign in again.',
          false,
        ),
      );
      return;
    }
    return handleAction(request, response, deps, viewer, path);
  }
  if (request.method !== 'GET') {
    sendHtml(
      response,
      405,
      sentencePage('Not this way', 'The console takes GET for pages and POST for actions.', false),
      { allow: 'GET, POST' },
    );
    return;
  }
  if (viewer === null || token === null) {
    if (path === '/console/live') {
      response.writeHead(401, { 'content-type': 'text/plain; charset=utf-8' });
      response.end('not signed in');
      return;
    }
    sendHtml(response, path === '/console' ? 200 : 401, signInPage(deps));
    return;
  }
  if (path === '/console/live') return streamLive(request, response, deps, token);
  const query = new URL(request.url ?? '/', 'http://console').searchParams;
  if (path === '/console/audit/export') return streamAuditExport(response, deps, viewer, query);
  const page =
    path === '/console/audit' ? (d: ConsoleDeps, v: ConsoleViewer) => auditPage(d, v, query) : PAGES[path];
  if (page === undefined) {
    sendHtml(response, 404, sentencePage('Not found', `There is no console page at ${path}.`, true));
    return;
  }
  const { title, body } = await page(deps, viewer);
  const who = {
    nickname: viewer.member.nickname,
    role: viewer.member.role,
    workspace: viewer.workspace.slug,
    csrf: viewer.session.csrfToken,
  };
  sendHtml(response, 200, layout({ title, path, body }, who));
}
