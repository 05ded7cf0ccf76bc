import type { AuditEventRecord } from '../model/audit/audit-event';

/** O4: the export's formats (`summon audit`, the console): a table for people, JSON Lines and CSV for tools. */
export const AUDIT_FORMATS = ['table', 'json', 'csv'] as const;
export type AuditFormat = (typeof AUDIT_FORMATS)[number];

/** O4: one event as a JSON object (one line of `--json`): at least `at`, `kind`, `actor`, `subject`. */
export const auditJson = (event: AuditEventRecord) =>
  JSON.stringify({
    at: event.at.toISOString(),
    kind: event.kind,
    actor: event.actor.name,
    actorKind: event.actor.kind,
    actorId: event.actor.id,
    where: event.where,
    subject: event.subject,
    detail: event.detail,
    id: event.id,
  });

export const AUDIT_CSV_HEADER = 'at,kind,actor,actor_kind,where,subject,detail,id';

/**
 * RFC 4180: a field holding a comma, a quote, or a line break is quoted, its quotes doubled;
 * others are written as they are.
 */
export const csvField = (value: string): string =>
  /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;

export const auditCsv = (event: AuditEventRecord): string =>
  [
    event.at.toISOString(),
    event.kind,
    event.actor.name,
    event.actor.kind,
    event.where,
    event.subject,
    JSON.stringify(event.detail),
    event.id,
  ]
    .map(csvField)
    .join(',');

/** The table's columns, fixed in width so that it can be printed as the rows arrive. */
const WIDTHS = [26, 21, 17, 10] as const;

const cell = (text: string, width: number) =>
  text.length > width - 1 ? `${text.slice(0, width - 2)}… ` : text.padEnd(width);

export const AUDIT_TABLE_HEADER = ['AT', 'KIND', 'ACTOR', 'WHERE']
  .map((title, i) => cell(title, WIDTHS[i] ?? 0))
  .join('')
  .concat('SUBJECT');

/** One row of the human table; line breaks in the subject are shown as spaces. */
export const auditRow = (event: AuditEventRecord): string =>
  [event.at.toISOString(), event.kind, event.actor.name, event.where]
    .map((text, i) => cell(text, WIDTHS[i] ?? 0))
    .join('')
    .concat(event.subject.replace(/\s+/g, ' '));
