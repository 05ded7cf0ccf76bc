import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ConsoleDeps } from './console-deps';
import { approvalsList } from './console-pages';
import type { ConsoleSessions, ConsoleViewer } from './console-sessions';
import { cardEvent } from './live-card-cell';
import { liveRuns, runsTable } from './live-runs';

/** A comment line now and then keeps proxies from closing a quiet stream. */
const KEEP_ALIVE_MS = 15_000;
/** A viewer whose connection took nothing for this long is let go (the page reconnects). */
const STALLED_MS = 60_000;

/**
 * O5: `/console/live?view=runs|approvals`, Server-Sent Events: the page's live part, rendered for
 * this viewer (their role decides the buttons), sent again whenever it changes (`update`). The
 * session is read again each time: once it ends (signed out, role changed, member removed) the
 * stream says `signed-out` and closes. On the runs view, a run's status card changes are pushed
 * as they are published (`card`), with no read of the store: only for the runs this viewer's
 * table shows, so what they may see is what the last read decided.
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
  /** The runs this viewer's table shows, with their stored token counts. */
  const shown = new Map<string, number>();
  let last = '';
  let closed = false;
  let busy = false;
  let quietSince = Date.now();
  // O5: a viewer who reads slower than cards change is not queued every change in memory: while
  // their connection is full, card events are dropped and reads wait; once it drains, the whole
  // table is drawn again with the cards as they are then (a newer card replaces the dropped ones).
  let fullSince: number | null = null;
  const full = () => {
    if (!response.writableNeedDrain) return false;
    fullSince ??= Date.now();
    return true;
  };
  response.on('drain', () => {
    if (fullSince === null) return;
    fullSince = null;
    last = '';
    void tick();
  });
  const unsubscribe =
    view === 'runs'
      ? deps.liveCards.subscribe((card) => {
          const stored = shown.get(card.runId);
          if (stored !== undefined && !closed && !full()) response.write(cardEvent(card, stored));
        })
      : () => {};
  const tick = async () => {
    if (busy || closed) return;
    if (full()) {
      if (Date.now() - (fullSince ?? Date.now()) > STALLED_MS) stop();
      return;
    }
    busy = true;
    try {
      const current = await stillSignedIn(deps.sessions, token);
      if (current === null) {
        response.write('event: signed-out\ndata: {}\n\n');
        return stop();
      }
      const read = await readLive(deps, current, view);
      // Drawn and written at once: no card change is published between the two.
      const { signature, html } = read(shown);
      if (signature !== last) {
        last = signature;
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
    unsubscribe();
    response.end();
  };
  request.on('close', stop);
  void tick();
}

const stillSignedIn = (sessions: ConsoleSessions, token: string) => sessions.viewer(token);

/** What the view shows now and what decides whether it changed, drawn from one read. */
type LiveDraw = (shown: Map<string, number>) => { signature: string; html: string };

async function readLive(
  deps: ConsoleDeps,
  viewer: ConsoleViewer,
  view: 'runs' | 'approvals',
): Promise<LiveDraw> {
  if (view === 'approvals') {
    const pending = await deps.members.listApprovals({ workspace: viewer.workspace, member: viewer.member });
    const html = approvalsList(pending, viewer);
    return () => ({ signature: html, html });
  }
  const runs = await liveRuns(deps, viewer);
  const csrf = viewer.session.csrfToken;
  return (shown) => {
    const cardOf = (id: string) => deps.liveCards.cardOf(id);
    shown.clear();
    for (const run of runs) shown.set(run.id, run.tokens);
    // A card's changes (and the tokens it counts) reach the page as `card` events, not as a new table.
    const bare = runs.map((run) => (cardOf(run.id) === null ? run : { ...run, tokens: 0 }));
    return { signature: runsTable(bare, csrf, () => null), html: runsTable(runs, csrf, cardOf) };
  };
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
  // O5: one run's status card changed: its cell, unless the page already shows a newer one.
  events.addEventListener('card', (event) => {
    const card = JSON.parse(event.data);
    const row = live.querySelector('tr[data-run="' + CSS.escape(card.run) + '"]');
    const cell = row === null ? null : row.querySelector('td.card');
    if (cell === null || Number(cell.dataset.seq || 0) >= card.seq) return;
    cell.innerHTML = card.html;
    cell.dataset.at = String(card.at);
    cell.dataset.seq = String(card.seq);
    const tokens = row.querySelector('td.tokens');
    if (tokens !== null) tokens.textContent = card.tokens;
  });
  events.addEventListener('signed-out', () => {
    events.close();
    location.assign('/console');
  });
})();
`;
