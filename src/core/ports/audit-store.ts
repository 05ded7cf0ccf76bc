import type { AuditCursor, AuditEntry, AuditEventRecord, AuditFilter } from '../model/audit/audit-event';

/** O4: one page of the log, and where the next begins (null: this was the last). */
export interface AuditPage {
  events: AuditEventRecord[];
  next: AuditCursor | null;
}

/**
 * O4: the audit log of a workspace. Append-only: nothing here updates or deletes a row but
 * `deleteOlderThan`, the retention job's (system context); the database refuses any other.
 */
export interface AuditRepository {
  /** Records `entry` in this transaction: it commits with the change it records, or not at all. */
  append(workspaceId: string, entry: AuditEntry): Promise<void>;
  /** Oldest first, at most `limit` events after `after` (keyset on time and order written: no offset, no snapshot held). */
  page(
    workspaceId: string,
    filter: AuditFilter,
    after: AuditCursor | null,
    limit: number,
  ): Promise<AuditPage>;
  /** O4: the retention job: deletes every workspace's events older than `cutoff`; how many. */
  deleteOlderThan(cutoff: Date): Promise<number>;
}
