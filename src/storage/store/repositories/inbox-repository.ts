import type { EntityManager } from 'typeorm';
import { NotFoundError } from '../../../core/errors';
import type { InboxEntry, InboxOutcome, InboxRecord } from '../../../core/model/inbox';
import type { Platform } from '../../../core/model/platform';
import type { InboxRepository } from '../../../core/ports/inbox-store';
import { isUuid } from '../ids';
import { deferStatement } from '../pending-statements';
import { PreparedStatement } from '../prepared-statement';
import { queryRecords } from '../query-records';
import { queryTogether, sqlLiteral, textLiteral } from '../statements-together';
import { routableRun } from './inbox-routable-run';

interface InboxSqlRow {
  id: string;
  platform: Platform;
  event_id: string;
  thread_key: string;
  channel_key: string | null;
  payload: unknown;
  received_at: Date | string;
  attempts: number;
}

/** What the claim says of each row of its window besides the row. */
interface WindowSqlRow {
  due: boolean;
  locked: boolean;
}

/** How many of the oldest unrouted rows one claim considers. */
const CLAIM_WINDOW = 256;

/**
 * T4: the claim of a run of rows (see `claimRun`). $1 the time (rows waiting for a retry are not
 * due before theirs), $2 the platforms this engine routes, $3 the most rows to take. A row never
 * tried is due at once: its `available_at` is the database's clock at the ack, which the router's
 * clock (a millisecond one, maybe on another host) can trail; only a retry's time is the router's.
 */
export const INBOX_CLAIM = new PreparedStatement(
  ['timestamptz', 'text[]', 'integer'],
  `WITH w AS MATERIALIZED (
     SELECT id, seq, platform, thread_key, channel_key, (attempts = 0 OR available_at <= $1) AS ready
     FROM inbound_inbox WHERE routed_at IS NULL ORDER BY seq LIMIT ${CLAIM_WINDOW}),
   heads AS (
     SELECT id FROM (
       SELECT id, seq, platform, channel_key, ready,
         min(seq) OVER (PARTITION BY platform, thread_key) AS thread_head,
         min(seq) OVER (PARTITION BY platform, channel_key) AS channel_head
       FROM w) ranked
     WHERE seq = thread_head AND (channel_key IS NULL OR seq = channel_head)
       AND ready AND platform = ANY ($2)),
   locked AS (
     SELECT i.id FROM inbound_inbox i
     WHERE i.id = ANY (ARRAY(SELECT id FROM heads)) AND i.routed_at IS NULL
     ORDER BY i.seq
     LIMIT $3
     FOR UPDATE OF i SKIP LOCKED),
   shown AS (
     (SELECT id FROM w ORDER BY seq LIMIT 2 * $3) UNION SELECT id FROM locked)
   SELECT i.id, i.platform, i.event_id, i.thread_key, i.channel_key, i.payload, i.received_at, i.attempts,
     (w.ready AND w.platform = ANY ($2)) AS due,
     EXISTS (SELECT 1 FROM locked l WHERE l.id = w.id) AS locked
   FROM w JOIN shown ON shown.id = w.id JOIN inbound_inbox i ON i.id = w.id
   ORDER BY w.seq`,
);

/** T4: a row routed, with its outcome; $1 when, $2 the outcome, $3 the row, $4 the error when it is not there. */
export const INBOX_MARK_ROUTED = new PreparedStatement(
  ['timestamptz', 'text', 'uuid', 'text'],
  `WITH found AS (
     UPDATE inbound_inbox SET routed_at = $1, outcome = $2, last_error = NULL WHERE id = $3 RETURNING 1)
   SELECT summon_row_required(EXISTS (SELECT 1 FROM found), $4)`,
);

const toRecord = (row: InboxSqlRow): InboxRecord => ({
  id: row.id,
  platform: row.platform,
  eventId: row.event_id,
  threadKey: row.thread_key,
  channelKey: row.channel_key,
  payload: typeof row.payload === 'string' ? JSON.parse(row.payload) : row.payload,
  receivedAt: new Date(row.received_at),
  attempts: row.attempts,
});

/**
 * T4, P6: the one write before the ack, for one event or many (a group commit: see
 * `group-commit.ts`). A retry, a replay or the second event of a pair (Slack's `message` +
 * `app_mention`) finds the key in the inbox, or already processed. The rows are stored in the
 * order given (`seq` follows the array order), so a thread's events keep their order.
 */
const ADD_TO_INBOX = `INSERT INTO inbound_inbox (platform, event_id, thread_key, channel_key, payload, received_at)
  SELECT v.platform, v.event_id, v.thread_key, v.channel_key, v.payload::jsonb, v.received_at
  FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::timestamptz[])
    WITH ORDINALITY AS v(platform, event_id, thread_key, channel_key, payload, received_at, n)
  WHERE NOT EXISTS (
    SELECT 1 FROM processed_inbound_events p WHERE p.platform = v.platform AND p.event_id = v.event_id)
  ORDER BY v.n
  ON CONFLICT ON CONSTRAINT uq_inbound_inbox_event DO NOTHING
  RETURNING platform, event_id`;

const keyOf = (platform: string, eventId: string) => `${platform}\u0000${eventId}`;

/**
 * The statement storing `entries`, and how to read its rows back: true for each entry it
 * stored. An event given twice is stored once, as its first occurrence (the later ones: false).
 */
export const addToInboxStatement = (entries: readonly InboxEntry[]) => {
  const seen = new Set<string>();
  const unique = entries.filter((entry) => {
    const key = keyOf(entry.platform, entry.eventId);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  const params = [
    unique.map((e) => e.platform),
    unique.map((e) => e.eventId),
    unique.map((e) => e.threadKey),
    unique.map((e) => e.channelKey),
    unique.map((e) => JSON.stringify(e.payload ?? {})),
    unique.map((e) => e.receivedAt),
  ];
  const storedFrom = (rows: readonly { platform: string; event_id: string }[]): boolean[] => {
    const stored = new Set(rows.map((row) => keyOf(row.platform, row.event_id)));
    // Only the first occurrence of a key may claim its row.
    return entries.map((entry) => stored.delete(keyOf(entry.platform, entry.eventId)));
  };
  return { name: 'summon_inbox_add', sql: ADD_TO_INBOX, params, storedFrom };
};

export const inboxRepository = (manager: EntityManager): InboxRepository => ({
  async add(entry) {
    const statement = addToInboxStatement([entry]);
    const rows = await queryRecords<{ platform: string; event_id: string }>(
      manager,
      statement.sql,
      statement.params,
    );
    return statement.storedFrom(rows)[0] === true;
  },

  async claimRun(platforms, now, limit) {
    const most = Math.min(Math.floor(limit), CLAIM_WINDOW);
    if (platforms.length === 0 || most < 1) return [];
    // T4: a thread is routed in order. Only a head (the oldest unrouted row of its thread and,
    // top-level, of its channel's top level) is locked, so another transaction's head is
    // skipped, and so (not being heads) are the rows after it. Rows that follow this claim's
    // heads are taken with them, unlocked (`routableRun`): a busy channel's next top-level
    // messages, or a thread's next replies, go in the same transaction, in order, with one claim.
    // Only the oldest CLAIM_WINDOW unrouted rows are looked at: a lane that finds nothing (every
    // head held by another lane) costs a bounded scan, however long the backlog; rows further
    // back are behind those anyway. The heads are found within that window (read once, by the
    // pending index, and ranked in memory): an earlier unrouted row of the same thread or
    // channel is in the window too, since the window is the oldest unrouted rows (T3: no probe
    // of the table per candidate, which would walk a burst's dead index entries each time). Of
    // the window, the oldest rows (twice `limit`: where followers can be) and the locked heads
    // are read back.
    const args = [
      sqlLiteral(now),
      `ARRAY[${platforms.map(textLiteral).join(', ')}]::text[]`,
      sqlLiteral(most),
    ];
    // T3: prepared (planned once per connection) and sent with what the transaction owes (the
    // last batch's routed marks and writes): one round trip a claim.
    const [claimed] = await queryTogether(manager, [INBOX_CLAIM.with(...args)]);
    const rows = (claimed ?? []) as unknown as (InboxSqlRow & WindowSqlRow)[];
    const window = rows.map((row) => ({
      platform: row.platform,
      threadKey: row.thread_key,
      channelKey: row.channel_key,
      due: row.due,
      locked: row.locked,
    }));
    return routableRun(window, most).map((index) => toRecord(rows[index] as InboxSqlRow));
  },

  async markRouted(id, outcome: InboxOutcome, at) {
    const missing = `No inbox row with id ${id}.`;
    if (!isUuid(id)) throw new NotFoundError(missing);
    // T3: nobody reads its answer, so it goes with the transaction's next message (the next
    // claim, or the COMMIT); a row that is not there still fails the transaction, on the server.
    await deferStatement(
      manager,
      INBOX_MARK_ROUTED.with(sqlLiteral(at), textLiteral(outcome), sqlLiteral(id), textLiteral(missing)),
    );
  },

  async recordFailure(id, error, retryAt, at) {
    await manager.query(
      `UPDATE inbound_inbox SET attempts = attempts + 1, last_error = $2,
         available_at = COALESCE($3, available_at),
         routed_at = CASE WHEN $3::timestamptz IS NULL THEN $4::timestamptz END,
         outcome = CASE WHEN $3::timestamptz IS NULL THEN 'failed' END
       WHERE id = $1`,
      [id, error.slice(0, 2000), retryAt, at],
    );
  },

  async countPending() {
    const rows = await queryRecords<{ n: string | number }>(
      manager,
      'SELECT count(*) AS n FROM inbound_inbox WHERE routed_at IS NULL',
    );
    return Number(rows[0]?.n ?? 0);
  },

  async prune(before) {
    const rows = await queryRecords<{ id: string }>(
      manager,
      'DELETE FROM inbound_inbox WHERE routed_at < $1 RETURNING id',
      [before],
    );
    return rows.length;
  },
});
