import type { EntityManager } from 'typeorm';
import {
  AUDIT_ACTOR_KINDS,
  AUDIT_KINDS,
  AUDIT_PLACES,
  type AuditDetail,
  type AuditEventRecord,
} from '../../../core/model/audit/audit-event';
import type { AuditRepository } from '../../../core/ports/audit-store';
import { deferStatement } from '../pending-statements';
import { queryRecords } from '../query-records';
import { sqlLiteral, textLiteral } from '../statements-together';

interface EventRow {
  id: string;
  /** Its place in the order of writing, as text (a bigint). */
  seq_key: string;
  workspace_id: string;
  at: Date;
  /** The time as PostgreSQL keeps it (microseconds), for the next page's keyset. */
  at_key: string;
  kind: string;
  actor_kind: string;
  actor_id: string | null;
  actor_name: string;
  subject: string;
  place: string;
  detail: AuditDetail | string;
}

const oneOf = <T extends string>(values: readonly T[], value: string, what: string): T => {
  if ((values as readonly string[]).includes(value)) return value as T;
  throw new Error(`audit_events holds an unknown ${what} "${value}"`);
};

const toEvent = (row: EventRow): AuditEventRecord => ({
  id: row.id,
  workspaceId: row.workspace_id,
  at: row.at,
  kind: oneOf(AUDIT_KINDS, row.kind, 'kind'),
  actor: {
    kind: oneOf(AUDIT_ACTOR_KINDS, row.actor_kind, 'actor kind'),
    id: row.actor_id,
    name: row.actor_name,
  },
  subject: row.subject,
  where: oneOf(AUDIT_PLACES, row.place, 'place'),
  // PGlite hands jsonb back as text.
  detail: typeof row.detail === 'string' ? (JSON.parse(row.detail) as AuditDetail) : row.detail,
});

/**
 * O4: the audit log in SQL (no entity): appended in the caller's transaction, read back a page
 * at a time by keyset, and deleted only by the retention job, which names itself to the
 * table's trigger for its transaction alone.
 */
export const auditRepository = (manager: EntityManager): AuditRepository => ({
  async append(workspaceId, entry) {
    // T3: nobody reads its answer, so it goes with the transaction's next message (at the
    // latest its COMMIT); a refused value (a check constraint) still fails the transaction.
    const text = (value: string | null) => (value === null ? 'NULL' : textLiteral(value));
    await deferStatement(
      manager,
      `INSERT INTO audit_events (workspace_id, at, kind, actor_kind, actor_id, actor_name, subject, place, detail)
       VALUES (${[
         sqlLiteral(workspaceId),
         entry.at === undefined ? 'now()' : sqlLiteral(entry.at),
         text(entry.kind),
         text(entry.actor.kind),
         text(entry.actor.id ?? null),
         text(entry.actor.name),
         text(entry.subject),
         text(entry.where),
         `${textLiteral(JSON.stringify(entry.detail ?? {}))}::jsonb`,
       ].join(', ')})`,
    );
  },
  async page(workspaceId, filter, after, limit) {
    const size = Math.max(1, Math.floor(limit));
    const params: unknown[] = [workspaceId, size + 1];
    const where = ['workspace_id = $1'];
    const add = (sql: (n: number) => string, value: unknown) => {
      params.push(value);
      where.push(sql(params.length));
    };
    if (filter.since !== undefined) add((n) => `at >= $${n}`, filter.since);
    if (filter.kind !== undefined) add((n) => `kind = $${n}`, filter.kind);
    if (filter.actor !== undefined) add((n) => `lower(actor_name) = lower($${n})`, filter.actor);
    if (after !== null) {
      params.push(after.at, after.seq);
      where.push(`(at, seq) > ($${params.length - 1}::timestamptz, $${params.length}::bigint)`);
    }
    const rows = await queryRecords<EventRow>(
      manager,
      `SELECT id, seq::text AS seq_key, workspace_id, at, at::text AS at_key, kind, actor_kind, actor_id, actor_name, subject, place, detail
         FROM audit_events WHERE ${where.join(' AND ')} ORDER BY at, seq LIMIT $2`,
      params,
    );
    const more = rows.length > size;
    const kept = more ? rows.slice(0, size) : rows;
    const last = kept.at(-1);
    return {
      events: kept.map(toEvent),
      next: more && last !== undefined ? { at: last.at_key, seq: last.seq_key } : null,
    };
  },
  async deleteOlderThan(cutoff) {
    await queryRecords(manager, "SELECT set_config('summon.audit_retention', 'on', true)");
    const [row] = await queryRecords<{ n: string }>(
      manager,
      'WITH gone AS (DELETE FROM audit_events WHERE at < $1 RETURNING 1) SELECT count(*)::text AS n FROM gone',
      [cutoff],
    );
    // Only this statement deletes: the rest of the transaction is held to append-only again.
    await queryRecords(manager, "SELECT set_config('summon.audit_retention', '', true)");
    return Number(row?.n ?? 0);
  },
});
