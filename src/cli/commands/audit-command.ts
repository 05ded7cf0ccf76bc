import type { Command } from 'commander';
import {
  AUDIT_CSV_HEADER,
  AUDIT_TABLE_HEADER,
  type AuditFormat,
  auditCsv,
  auditJson,
  auditRow,
} from '../../core/audit/audit-format';
import { AUDIT_PAGE_SIZE, auditEvents } from '../../core/audit/audit-log';
import { parseAuditSince } from '../../core/audit/audit-since';
import { ValidationError } from '../../core/errors';
import { AUDIT_KINDS, type AuditFilter, type AuditKind } from '../../core/model/audit/audit-event';
import { type CliContext, withRuntime } from '../cli-context';

interface AuditOptions {
  workspace: string;
  since?: string;
  actor?: string;
  kind?: string;
  json?: boolean;
  csv?: boolean;
}

/**
 * O4: `summon audit`: a workspace's audit log, oldest first, as a table, JSON Lines or CSV.
 * Streamed: read a page at a time and printed a page at a time, never the whole log at once.
 */
export function registerAuditCommand(program: Command, context: CliContext): void {
  program
    .command('audit')
    .description(
      'the audit log of a workspace: approvals, pushes, guarded calls, stops, members, skills, applies',
    )
    .option('-w, --workspace <slug>', 'workspace', 'default')
    .option('--since <date|duration>', 'a date (2026-11-01), a moment, or a duration back (30m, 12h, 7d, 2w)')
    .option('--actor <member>', 'only events by this member (or agent), by name')
    .option('--kind <kind>', `only events of this kind: ${AUDIT_KINDS.join(', ')}`)
    .option('--json', 'JSON Lines: one event an object')
    .option('--csv', 'CSV: a header, then one event a row')
    .action((options: AuditOptions) => {
      const format = formatOf(options);
      const filter = filterOf(options, new Date());
      return withRuntime(context, async ({ store }) => {
        const header = format === 'json' ? null : format === 'csv' ? AUDIT_CSV_HEADER : AUDIT_TABLE_HEADER;
        const line = format === 'json' ? auditJson : format === 'csv' ? auditCsv : auditRow;
        let page: string[] = header === null ? [] : [header];
        for await (const event of auditEvents(store, options.workspace, filter)) {
          page.push(line(event));
          if (page.length < AUDIT_PAGE_SIZE) continue;
          context.output.out(page.join('\n'));
          page = [];
        }
        if (page.length > 0) context.output.out(page.join('\n'));
      });
    });
}

function formatOf(options: AuditOptions): AuditFormat {
  if (options.json && options.csv)
    throw new ValidationError('Choose one of --json and --csv (or neither, for a table).', [
      { path: 'format', message: '--json and --csv together' },
    ]);
  return options.json ? 'json' : options.csv ? 'csv' : 'table';
}

function filterOf(options: AuditOptions, now: Date): AuditFilter {
  const since = parseAuditSince(options.since, now);
  const actor = options.actor?.trim().replace(/^@/, '');
  return {
    ...(since === undefined ? {} : { since }),
    ...(options.kind === undefined ? {} : { kind: kindOf(options.kind) }),
    ...(actor === undefined || actor === '' ? {} : { actor }),
  };
}

function kindOf(text: string): AuditKind {
  const kind = AUDIT_KINDS.find((k) => k === text.trim());
  if (kind === undefined)
    throw new ValidationError(`--kind must be one of ${AUDIT_KINDS.join(', ')}; got "${text}"`, [
      { path: 'kind', message: 'not a kind of audit event' },
    ]);
  return kind;
}
