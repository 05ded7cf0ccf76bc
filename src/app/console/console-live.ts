import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ConsoleDeps } from './console-deps';
import { approvalsList } from './console-pages';
import type { ConsoleSessions, ConsoleViewer } from './console-sessions';
import { liveRuns, runsTable } from './live-runs';

/** A comment line now and then keeps proxies from closing a quiet stream. */
const KEEP_ALIVE_MS = 15_000;

/**
 * O5: `/console/live?view=runs|approvals`, Server-Sent Events: the page's live part, rendered for
 * this viewer (their role decides the buttons), sent again whenever it changes. The session is
 * read again each time: once it ends (signed out, role changed, member removed) the stream says
 * `signed-out` and closes.
 */
export function streamLive(
  request: IncomingMessage,
  response: ServerResponse,
  deps: ConsoleDeps,
  token: string,
): void {
  const view =
    new URL(request.url ?? '/', 'http://summon.invalid').searchParams.get('view') === 'approvals'
      ? 'approvals'
      : 'runs';
  response.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  response.write('retry: 2000\n\n');
  let last = '';
  let closed = false;
  let busy = false;
  let quietSince = Date.now();
  const tick = async () => {
    if (busy || closed) return;
    busy = true;
    try {
      const current = await stillSignedIn(deps.sessions, token);
      if (current === null) {
        response.write('event: signed-out\ndata: {}\n\n');
        return stop();
      }
      const html = await render(deps, current, view);
      if (html !== last) {
        last = html;
        quietSince = Date.now();
        response.write(`event: update\ndata: ${JSON.stringify(html)}\n\n`);
      } else if (Date.now() - quietSince > KEEP_ALIVE_MS) {
        quietSince = Date.now();
        response.write(': keep-alive\n\n');
      }
    } catch (error) {
      deps.logger.warn(
        { err: error instanceof Error ? error.message : String(error) },
        'O5: the console’s live view could not be read',
      );
    } finally {
      busy = false;
    }
  };
  const timer = setInterval(() => void tick(), deps.livePollMs);
  const stop = () => {
    if (closed) return;
    closed = true;
    clearInterval(timer);
    response.end();
  };
  request.on('close', stop);
  void tick();
}

const stillSignedIn = (sessions: ConsoleSessions, token: string) => sessions.viewer(token);

async function render(deps: ConsoleDeps, viewer: ConsoleViewer, view: 'runs' | 'approvals'): Promise<string> {
  if (view === 'runs') return runsTable(await liveRuns(deps, viewer), viewer.session.csrfToken);
  const pending = await deps.members.listApprovals({ workspace: viewer.workspace, member: viewer.member });
  return approvalsList(pending, viewer);
}

/** O5: the console's light script: live updates (keeping keyboard focus), running times. No build step. */
export const CONSOLE_SCRIPT = `(() => {
  const live = document.querySelector('[data-live]');
  const tickTimes = () => {
    for (const t of document.querySelectorAll('time[data-since]')) {
      const s = Math.max(0, Math.round((Date.now() - Number(t.dataset.since)) / 1000));
      t.textContent = s < 60 ? s + ' s' : Math.floor(s / 60) + ' min ' + (s % 60) + ' s';
    }
  };
  tickTimes();
  setInterval(tickTimes, 1000);
  if (live === null || !('EventSource' in window)) return;
  const events = new EventSource('/console/live?view=' + live.dataset.live);
  events.addEventListener('update', (event) => {
    const focused = document.activeElement && document.activeElement.id;
    live.innerHTML = JSON.parse(event.data);
    tickTimes();
    const again = focused ? document.getElementById(focused) : null;
    if (again !== null) again.focus();
  });
  events.addEventListener('signed-out', () => {
    events.close();
    location.assign('/console');
  });
})();
`;
