import { once } from 'node:events';
import type { ServerResponse } from 'node:http';
import { AUDIT_CSV_HEADER, auditCsv, auditJson } from '../../core/audit/audit-format';
import { auditEvents } from '../../core/audit/audit-log';
import { parseAuditSince } from '../../core/audit/audit-since';
import { ValidationError } from '../../core/errors';
import {
  AUDIT_KINDS,
  type AuditEventRecord,
  type AuditFilter,
  type AuditKind,
} from '../../core/model/audit/audit-event';
import { canReadAudit } from '../../core/model/member';
import type { ConsoleDeps } from './console-deps';
import { esc, sendHtml, sentencePage } from './console-html';
import type { PageBody } from './console-pages';
import type { ConsoleViewer } from './console-sessions';

/** O5: the page shows this many events; the export has them all. */
export const AUDIT_PAGE_ROWS = 500;
/** The page's default window when no `since` is given. */
const DEFAULT_SINCE = '7d';

/** The filters of the page's form, read from the query string; a sentence for one that is not valid. */
function filterOf(query: URLSearchParams, now: Date, fallbackSince?: string): AuditFilter {
  const since = parseAuditSince(query.get('since') ?? fallbackSince, now);
  const kind = query.get('kind') ?? '';
  if (kind !== '' && !(AUDIT_KINDS as readonly string[]).includes(kind))
    throw new ValidationError(`There is no audit kind "${kind}".`, [
      { path: 'kind', message: 'unknown kind' },
    ]);
  const actor = (query.get('actor') ?? '').trim().replace(/^@/, '');
  return {
    ...(since === undefined ? {} : { since }),
    ...(kind === '' ? {} : { kind: kind as AuditKind }),
    ...(actor === '' ? {} : { actor }),
  };
}

const refusal = (viewer: ConsoleViewer) =>
  `Your role (${viewer.member.role}) cannot read the audit log; owners and admins can.`;

/** O4, O5: the audit log with its filters (since, actor, kind) and links to export what they select. */
export async function auditPage(
  deps: ConsoleDeps,
  viewer: ConsoleViewer,
  query: URLSearchParams,
): Promise<PageBody> {
  if (!canReadAudit(viewer.member.role))
    return { title: 'Audit log', body: `<p role="alert">${esc(refusal(viewer))}</p>` };
  let filter: AuditFilter;
  try {
    filter = filterOf(query, deps.clock.now(), DEFAULT_SINCE);
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    return { title: 'Audit log', body: `${form(query)}<p role="alert">${esc(error.message)}</p>` };
  }
  const events: AuditEventRecord[] = [];
  for await (const event of auditEvents(deps.store, viewer.workspace.slug, filter, AUDIT_PAGE_ROWS)) {
    if (events.length === AUDIT_PAGE_ROWS) break;
    events.push(event);
  }
  const shown = new URLSearchParams({ since: query.get('since') ?? DEFAULT_SINCE });
  for (const key of ['actor', 'kind']) {
    const value = query.get(key);
    if (value) shown.set(key, value);
  }
  const exports = ['csv', 'json']
    .map(
      (format) =>
        `<a href="/console/audit/export?${esc(new URLSearchParams({ ...Object.fromEntries(shown), format }).toString())}">Export as ${format === 'csv' ? 'CSV' : 'JSON Lines'}</a>`,
    )
    .join(' · ');
  const more =
    events.length === AUDIT_PAGE_ROWS
      ? `<p class="note">The first ${AUDIT_PAGE_ROWS} events are shown; the export has them all.</p>`
      : '';
  return {
    title: 'Audit log',
    body: `${form(query)}<p>${exports}</p>${more}${table(events)}`,
  };
}

function form(query: URLSearchParams): string {
  const kinds = ['', ...AUDIT_KINDS]
    .map(
      (k) =>
        `<option value="${k}"${query.get('kind') === k ? ' selected' : ''}>${k === '' ? 'any kind' : esc(k)}</option>`,
    )
    .join('');
  return `<form method="get" action="/console/audit"><label>Since <input name="since" value="${esc(query.get('since') ?? DEFAULT_SINCE)}" size="12" aria-describedby="since-help"></label> <label>Actor <input name="actor" value="${esc(query.get('actor') ?? '')}" size="12"></label> <label>Kind <select name="kind">${kinds}</select></label> <button type="submit">Show</button><p id="since-help" class="note">A date (2026-11-01), a moment, or a time back from now (30m, 12h, 7d, 2w).</p></form>`;
}

function table(events: readonly AuditEventRecord[]): string {
  if (events.length === 0) return '<p>No audit events match.</p>';
  const rows = events
    .map(
      (e) =>
        `<tr><td>${esc(e.at.toISOString().replace('T', ' ').slice(0, 19))}</td><td>${esc(e.kind)}</td><td>${esc(e.actor.name)}</td><td>${esc(e.where)}</td><td>${esc(e.subject)}</td></tr>`,
    )
    .join('');
  return `<table><thead><tr><th scope="col">At (UTC)</th><th scope="col">Kind</th><th scope="col">Actor</th><th scope="col">Where</th><th scope="col">Subject</th></tr></thead><tbody>${rows}</tbody></table>`;
}

/**
 * O4, O5: the audit export: every event the filters select, streamed a page at a time as CSV or
 * JSON Lines (the same rows as `summon audit`), waiting for the browser when it reads slowly.
 */
export async function streamAuditExport(
  response: ServerResponse,
  deps: ConsoleDeps,
  viewer: ConsoleViewer,
  query: URLSearchParams,
): Promise<void> {
  if (!canReadAudit(viewer.member.role)) {
    sendHtml(response, 403, sentencePage('Audit log', refusal(viewer), true));
    return;
  }
  const format = query.get('format') === 'json' ? 'json' : 'csv';
  let filter: AuditFilter;
  try {
    filter = filterOf(query, deps.clock.now());
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    sendHtml(response, 400, sentencePage('Audit log', error.message, true));
    return;
  }
  const day = deps.clock.now().toISOString().slice(0, 10);
  response.writeHead(200, {
    'content-type': format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8',
    'content-disposition': `attachment; filename="summon-audit-${viewer.workspace.slug}-${day}.${format === 'csv' ? 'csv' : 'jsonl'}"`,
    'cache-control': 'no-store',
  });
  if (format === 'csv') response.write(`${AUDIT_CSV_HEADER}\n`);
  for await (const event of auditEvents(deps.store, viewer.workspace.slug, filter)) {
    if (response.destroyed) return;
    const line = `${format === 'csv' ? auditCsv(event) : auditJson(event)}\n`;
    if (!response.write(line)) await Promise.race([once(response, 'drain'), once(response, 'close')]);
  }
  response.end();
}
