import type { EntityManager } from 'typeorm';
import type { Platform } from '../../../core/model/platform';
import type { OutboxItem, OutboxRepository, OutboxRowState } from '../../../core/ports/outbox-store';
import { deferToCommit } from '../pending-statements';
import { PreparedStatement } from '../prepared-statement';
import { queryRecords } from '../query-records';
import { queryTogether, sqlLiteral, textLiteral } from '../statements-together';

interface OutboxDbRow {
  id: string;
  workspace_id: string;
  platform: Platform;
  lane: string;
  kind: string;
  payload: unknown;
  status: OutboxItem['status'];
  attempts: number;
  platform_ref: string | null;
}

const toItem = (row: OutboxDbRow): OutboxItem => ({
  id: row.id,
  workspaceId: row.workspace_id,
  platform: row.platform,
  lane: row.lane,
  kind: row.kind,
  payload: row.payload,
  status: row.status,
  attempts: row.attempts,
  platformRef: row.platform_ref,
});

const COLUMNS = 'id, workspace_id, platform, lane, kind, payload, status, attempts, platform_ref';

/**
 * P7: a call stored already on its way ($1 workspace, $2 platform, $3 lane, $4 kind, $5 payload).
 * T3: prepared, and sent with the statements of the transaction it is stored in (a turn's reply
 * and its run) rather than in a round trip of its own. T2: `xmin` names the transaction.
 */
export const ADD_SENDING = new PreparedStatement(
  ['uuid', 'text', 'text', 'text', 'jsonb'],
  `INSERT INTO outbox (workspace_id, platform, lane, kind, payload, status, sending_since)
    VALUES ($1, $2, $3, $4, $5, 'sending', now())
    RETURNING id, xmin::text AS version`,
);

/** P7: a call that went out ($1, its platform's ref $2); T3: marks of one commit go with its COMMIT. */
export const MARK_SENT = new PreparedStatement(
  ['uuid', 'text'],
  `UPDATE outbox SET status = 'sent', sent_at = now(), platform_ref = $2, last_error = NULL WHERE id = $1`,
);

/**
 * P7: the outbox's statements that find calls by status, each of one platform ($1): those
 * `ix_outbox_lane` (platform, status, seq) serves. $2 and $3: `failAbandoned`'s silence (ms) and
 * error; `pruneFinished`'s time.
 */
export const OUTBOX_BY_STATUS = {
  unfinished: `SELECT ${COLUMNS} FROM outbox WHERE platform = $1 AND status IN ('pending', 'sending') ORDER BY seq`,
  failAbandoned: `UPDATE outbox SET status = 'failed', attempts = attempts + 1, last_error = $3
        WHERE platform = $1 AND status = 'sending'
          AND (sending_since IS NULL OR sending_since < now() - $2 * interval '1 millisecond')
        RETURNING id`,
  pruneFinished: `DELETE FROM outbox WHERE platform = $1 AND status IN ('sent', 'failed') AND created_at < $2 RETURNING id`,
} as const;

/** P7: the outbox in the system context; each state change is one conditional UPDATE. */
export const outboxRepository = (manager: EntityManager): OutboxRepository => ({
  async add(item) {
    const rows = await queryRecords<OutboxDbRow>(
      manager,
      `INSERT INTO outbox (workspace_id, platform, lane, kind, payload) VALUES ($1, $2, $3, $4, $5::jsonb) RETURNING ${COLUMNS}`,
      [item.workspaceId, item.platform, item.lane, item.kind, JSON.stringify(item.payload ?? {})],
    );
    const row = rows[0];
    if (row === undefined) throw new Error('outbox insert returned no row');
    return toItem(row);
  },
  async addSending(item) {
    const payload = item.payload ?? {};
    const [rows] = await queryTogether(manager, [
      ADD_SENDING.with(
        sqlLiteral(item.workspaceId),
        textLiteral(item.platform),
        textLiteral(item.lane),
        textLiteral(item.kind),
        textLiteral(JSON.stringify(payload)),
      ),
    ]);
    const row = rows?.[0] as { id: string; version: string } | undefined;
    if (row === undefined) throw new Error('outbox insert returned no row');
    // The row as inserted: what was given, on its way, not tried yet.
    const stored: OutboxItem = {
      id: row.id,
      workspaceId: item.workspaceId,
      platform: item.platform,
      lane: item.lane,
      kind: item.kind,
      payload,
      status: 'sending',
      attempts: 0,
      platformRef: null,
    };
    return { item: stored, version: row.version };
  },
  // T2: a row's version is its `xmin`, the transaction that wrote it last: the mark's own
  // transaction is known from its UPDATE before its COMMIT goes out.
  async markSending(id) {
    const rows = await queryRecords<{ version: string }>(
      manager,
      `UPDATE outbox SET status = 'sending', sending_since = now() WHERE id = $1 AND status = 'pending'
        RETURNING xmin::text AS version`,
      [id],
    );
    return rows[0]?.version ?? null;
  },
  async state(id) {
    const rows = await queryRecords<OutboxRowState>(
      manager,
      `SELECT status, xmin::text AS version, platform_ref AS "platformRef", last_error AS "lastError"
        FROM outbox WHERE id = $1`,
      [id],
    );
    return rows[0] ?? null;
  },
  async markSent(id, platformRef) {
    // T2: the deliverer reads the row back when this commit's outcome is unknown.
    await deferToCommit(
      manager,
      MARK_SENT.with(sqlLiteral(id), platformRef === null ? 'NULL' : textLiteral(platformRef)),
    );
  },
  async markRetry(id, availableAt, error) {
    await queryRecords(
      manager,
      `UPDATE outbox SET status = 'pending', attempts = attempts + 1, available_at = $2, last_error = $3
        WHERE id = $1`,
      [id, availableAt, error],
    );
  },
  async markFailed(id, error) {
    await queryRecords(
      manager,
      `UPDATE outbox SET status = 'failed', attempts = attempts + 1, last_error = $2 WHERE id = $1`,
      [id, error],
    );
  },
  // P7, T2, A12: the database's clock both marks and judges, so workers' clocks need not agree.
  async failAbandoned(platform, silentForMs, error) {
    const rows = await queryRecords<{ id: string }>(manager, OUTBOX_BY_STATUS.failAbandoned, [
      platform,
      silentForMs,
      error,
    ]);
    return rows.length;
  },
  async pruneFinished(platform, before) {
    const rows = await queryRecords<{ id: string }>(manager, OUTBOX_BY_STATUS.pruneFinished, [
      platform,
      before,
    ]);
    return rows.length;
  },
  async unfinished(platform) {
    const rows = await queryRecords<OutboxDbRow>(manager, OUTBOX_BY_STATUS.unfinished, [platform]);
    return rows.map(toItem);
  },
});
