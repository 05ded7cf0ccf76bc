import { NotFoundError } from '../errors';
import type { AuditCursor, AuditEventRecord, AuditFilter } from '../model/audit/audit-event';
import type { AuditPage } from '../ports/audit-store';
import type { Clock } from '../ports/clock';
import type { Logger } from '../ports/logger';
import type { Store } from '../ports/store';

/** O4: events read per page when the log is exported. */
export const AUDIT_PAGE_SIZE = 1000;

/** O4: `SUMMON_AUDIT_RETENTION_DAYS`' default: a year. */
export const DEFAULT_AUDIT_RETENTION_DAYS = 365;

const DAY_MS = 86_400_000;

/**
 * O4: a workspace's audit events, oldest first, read a page at a time (keyset on time and order,
 * each page its own short transaction under the workspace's row-level security, A2): an
 * export of a year holds one page in memory, never the year.
 */
export async function* auditEvents(
  store: Store,
  workspaceSlug: string,
  filter: AuditFilter,
  pageSize = AUDIT_PAGE_SIZE,
): AsyncGenerator<AuditEventRecord> {
  const workspace = await store.transaction((tx) => tx.workspaces.findBySlug(workspaceSlug));
  if (workspace === null)
    throw new NotFoundError(
      `no workspace "${workspaceSlug}"; create it with \`summon workspace create ${workspaceSlug}\``,
    );
  let after: AuditCursor | null = null;
  do {
    const cursor: AuditCursor | null = after;
    const page: AuditPage = await store.inWorkspace(workspace.id, (tx) =>
      tx.audit.page(workspace.id, filter, cursor, pageSize),
    );
    yield* page.events;
    after = page.next;
  } while (after !== null);
}

/**
 * O4: the retention job: every workspace's events older than `days` days are deleted (the only
 * deletion the log allows); the rest are kept untouched. Returns how many went.
 */
export async function pruneAuditLog(
  deps: { store: Store; clock: Clock; logger: Logger },
  days: number,
): Promise<number> {
  const cutoff = new Date(deps.clock.now().getTime() - days * DAY_MS);
  const deleted = await deps.store.transaction((tx) => tx.audit.deleteOlderThan(cutoff));
  if (deleted > 0)
    deps.logger.info({ deleted, before: cutoff.toISOString() }, 'audit events past retention deleted');
  return deleted;
}

/** O4: how often the retention job runs in a process that runs turns. */
export const AUDIT_RETENTION_EVERY_MS = 6 * 60 * 60 * 1000;

/**
 * O4: the retention job, now and then every `everyMs` (never two passes at once; a failed pass
 * is logged and the next one tries again). Returns how to stop it, once a pass under way ends.
 */
export function startAuditRetention(
  deps: { store: Store; clock: Clock; logger: Logger },
  days: number,
  everyMs = AUDIT_RETENTION_EVERY_MS,
): () => Promise<void> {
  let running: Promise<unknown> | null = null;
  const pass = () => {
    if (running !== null) return;
    running = pruneAuditLog(deps, days)
      .catch((error: unknown) => deps.logger.error({ err: error }, 'audit retention failed'))
      .finally(() => {
        running = null;
      });
  };
  pass();
  const timer = setInterval(pass, everyMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
