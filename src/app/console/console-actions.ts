import type { IncomingMessage, ServerResponse } from 'node:http';
import { AppError } from '../../core/errors';
import { accountOn, noAccountOn } from '../../core/mcp-service/reachable-spaces';
import type { Platform } from '../../core/model/platform';
import type { PlatformActor } from '../../core/ports/chat-engine';
import { consoleCookie, SESSION_COOKIE, sameText } from './console-cookies';
import { type ConsoleDeps, secureCookies } from './console-deps';
import { sendHtml, sentencePage } from './console-html';
import type { ConsoleViewer } from './console-sessions';
import { liveRuns } from './live-runs';

/** A form body is small: a CSRF token and a verdict. */
const MAX_BODY_BYTES = 4096;

/**
 * O5: a state-changing request (POST): the session's CSRF token must come back, in the form's
 * `csrf` field or the `x-csrf-token` header, or nothing is done. Then Stop (P15), Approve or
 * Deny (G4) through the engine's `act`, as a click on the card would, or sign-out. A form is
 * answered with a redirect to the page it came from; the light script asks for JSON.
 */
export async function handleAction(
  request: IncomingMessage,
  response: ServerResponse,
  deps: ConsoleDeps,
  viewer: ConsoleViewer,
  path: string,
): Promise<void> {
  const wantsJson = (request.headers.accept ?? '').includes('application/json');
  try {
    const form = await readForm(request);
    const csrf = String(request.headers['x-csrf-token'] ?? form.get('csrf') ?? '');
    if (!sameText(csrf, viewer.session.csrfToken))
      throw new AppError(
        'This request did not carry the console’s form token (CSRF), so nothing was done. Reload the page and try again.',
        'forbidden',
      );
    const done = await act(deps, viewer, path, form);
    if (path === '/console/sign-out') {
      response.writeHead(303, {
        location: '/console',
        'set-cookie': consoleCookie(SESSION_COOKIE, '', { maxAgeSeconds: 0, secure: secureCookies(deps) }),
      });
      response.end();
      return;
    }
    if (wantsJson) return json(response, 200, { ok: true, message: done });
    response.writeHead(303, { location: backTo(path) });
    response.end();
  } catch (error) {
    const known = error instanceof AppError;
    const status = !known
      ? 500
      : error.code === 'not_found'
        ? 404
        : error.code.startsWith('validation')
          ? 400
          : 403;
    const sentence = known ? error.message : 'Summon could not do this.';
    deps.logger.warn(
      { path, memberId: viewer.member.id, reason: error instanceof Error ? error.message : String(error) },
      'O5: a console action was refused',
    );
    if (wantsJson) return json(response, status, { ok: false, message: sentence });
    sendHtml(response, status, sentencePage('Not done', sentence, true));
  }
}

async function act(
  deps: ConsoleDeps,
  viewer: ConsoleViewer,
  path: string,
  form: URLSearchParams,
): Promise<string> {
  if (path === '/console/sign-out') {
    await deps.sessions.end(viewer.session);
    return 'Signed out.';
  }
  const stop = /^\/console\/runs\/([0-9a-f-]{36})\/stop$/.exec(path);
  if (stop?.[1] !== undefined) return stopRun(deps, viewer, stop[1]);
  const decide = /^\/console\/approvals\/([0-9a-f-]{36})$/.exec(path);
  if (decide?.[1] !== undefined) {
    const verdict = form.get('verdict');
    if (verdict !== 'approve' && verdict !== 'deny')
      throw new AppError(`A decision is approve or deny, not "${verdict ?? ''}".`, 'validation');
    return decideApproval(deps, viewer, decide[1], verdict);
  }
  throw new AppError(`There is nothing to do at ${path}.`, 'not_found');
}

/** G4: the same path as the card's click (`act`), as the member's account on the card's platform. */
async function decideApproval(
  deps: ConsoleDeps,
  viewer: ConsoleViewer,
  approvalId: string,
  verdict: 'approve' | 'deny',
): Promise<string> {
  const caller = { workspace: viewer.workspace, member: viewer.member };
  const visible = await deps.members.listApprovals(caller);
  if (!visible.some((a) => a.approvalId === approvalId))
    throw new AppError('This approval is no longer waiting, or is not one you can see.', 'not_found');
  const result = await deps.members.decideApproval(caller, { approvalId, verdict, via: 'console' });
  return `The approval is ${result.status}.`;
}

/** P15: Stop through the engine's `act`, whose role check is chat's. */
async function stopRun(deps: ConsoleDeps, viewer: ConsoleViewer, runId: string): Promise<string> {
  const chat = deps.chat();
  if (chat === null)
    throw new AppError(
      'No chat platform runs in this Summon process, so no turn can be stopped here.',
      'unavailable',
    );
  const run = (await liveRuns(deps, viewer)).find((r) => r.id === runId);
  if (run === undefined)
    throw new AppError('This turn is not running any more, or is not one you can see.', 'not_found');
  const result = await chat.engine.act(
    { kind: 'stop-run', runId },
    await actorOn(deps, viewer, run.platform),
  );
  if (!result.ok) throw new AppError(result.reason, 'forbidden');
  return `${run.agent}’s turn is stopping.`;
}

/** The viewer as their account on a platform, as a click there would name them (P8). */
async function actorOn(
  deps: Pick<ConsoleDeps, 'store'>,
  viewer: ConsoleViewer,
  platform: Platform,
): Promise<PlatformActor> {
  const senderId = accountOn(viewer.member, platform);
  if (senderId === null) throw new AppError(noAccountOn(viewer.member, platform), 'forbidden');
  if (platform === 'terminal')
    return { platform, workspace: { slug: viewer.workspace.slug }, senderId, via: 'console' };
  const team = await deps.store.inWorkspace(viewer.workspace.id, async (tx) =>
    (await tx.platformBindings.listForWorkspace(viewer.workspace.id)).find((b) => b.platform === platform),
  );
  const workspace =
    team === undefined
      ? { slug: viewer.workspace.slug }
      : { platform: team.platform, externalId: team.externalId };
  return { platform, workspace, senderId, via: 'console' };
}

async function readForm(request: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES)
      throw new AppError('This request is too large for a console form.', 'validation');
    chunks.push(chunk as Buffer);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

/** Back to the page the form is on (the console sends no referrer: its addresses may hold codes). */
const backTo = (path: string): string =>
  path.startsWith('/console/approvals/') ? '/console/approvals' : '/console';

function json(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  response.end(JSON.stringify(body));
}
