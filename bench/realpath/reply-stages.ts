import type { Client } from 'pg';

/** Percentiles (ms) of one stage a reply passes through in Summon, read from its database. */
export interface StageTimes {
  p50Ms: number;
  p99Ms: number;
}

/**
 * A diagnostic, not a goal: where a measured mention's time went inside Summon, from the rows
 * it left (both clocks are this machine's). `routed`: its inbox row stored (the ack's write)
 * until routed (T4); `claimed`: its run routed until a worker claimed it (T1, T3); `turn`: the
 * claim until the run finished (the model call, the reply stored and posted, the finish). The
 * turn in two: `replyStored`, the claim until the reply's transaction began on the server (the
 * claim's answer, the turn's start, the model call, a reply slot); `posted`, from then until
 * the transaction that marked its post sent began (the reply's commit, the post, a finish slot).
 */
export interface ReplyStages {
  routed: StageTimes;
  claimed: StageTimes;
  turn: StageTimes;
  replyStored: StageTimes | null;
  posted: StageTimes | null;
}

const STAGES = `
  WITH inbox AS (
    SELECT extract(epoch FROM routed_at - received_at) * 1000 AS ms
    FROM inbound_inbox WHERE received_at >= $1 AND routed_at IS NOT NULL),
  runs AS (
    SELECT extract(epoch FROM started_at - created_at) * 1000 AS claimed_ms,
           extract(epoch FROM finished_at - started_at) * 1000 AS turn_ms,
           reply_message_id, conversation_id, started_at
    FROM runs WHERE created_at >= $1 AND finished_at IS NOT NULL),
  -- A reply's message is stored with its transaction's time (now()); its post is the one
  -- chat.postMessage of the thread's outbox lane, marked sent with the marking transaction's.
  replies AS (
    SELECT extract(epoch FROM m.created_at - r.started_at) * 1000 AS stored_ms,
           extract(epoch FROM o.sent_at - m.created_at) * 1000 AS posted_ms
    FROM runs r
    JOIN messages m ON m.id = r.reply_message_id
    JOIN conversations c ON c.id = r.conversation_id
    JOIN outbox o ON o.lane = c.platform_thread_ref AND o.kind = 'chat.postMessage' AND o.sent_at IS NOT NULL)
  SELECT (SELECT percentile_cont(ARRAY[0.5, 0.99]) WITHIN GROUP (ORDER BY ms) FROM inbox) AS routed,
         (SELECT percentile_cont(ARRAY[0.5, 0.99]) WITHIN GROUP (ORDER BY claimed_ms) FROM runs) AS claimed,
         (SELECT percentile_cont(ARRAY[0.5, 0.99]) WITHIN GROUP (ORDER BY turn_ms) FROM runs) AS turn,
         (SELECT percentile_cont(ARRAY[0.5, 0.99]) WITHIN GROUP (ORDER BY stored_ms) FROM replies) AS reply_stored,
         (SELECT percentile_cont(ARRAY[0.5, 0.99]) WITHIN GROUP (ORDER BY posted_ms) FROM replies) AS posted`;

interface Row {
  routed: number[] | null;
  claimed: number[] | null;
  turn: number[] | null;
  reply_stored: number[] | null;
  posted: number[] | null;
}

/** The stages of the rows stored since `since` (the measured stretch's start), or null if none. */
export async function readReplyStages(client: Client, since: Date): Promise<ReplyStages | null> {
  const row = (await client.query<Row>(STAGES, [since])).rows[0];
  if (row === undefined || row.routed === null || row.claimed === null || row.turn === null) return null;
  const times = ([p50Ms, p99Ms]: number[]): StageTimes => ({ p50Ms: p50Ms ?? 0, p99Ms: p99Ms ?? 0 });
  return {
    routed: times(row.routed),
    claimed: times(row.claimed),
    turn: times(row.turn),
    replyStored: row.reply_stored === null ? null : times(row.reply_stored),
    posted: row.posted === null ? null : times(row.posted),
  };
}
