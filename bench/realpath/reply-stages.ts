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
 * claim until the run finished (the model call, the reply stored and posted, the finish).
 */
export interface ReplyStages {
  routed: StageTimes;
  claimed: StageTimes;
  turn: StageTimes;
}

const STAGES = `
  WITH inbox AS (
    SELECT extract(epoch FROM routed_at - received_at) * 1000 AS ms
    FROM inbound_inbox WHERE received_at >= $1 AND routed_at IS NOT NULL),
  runs AS (
    SELECT extract(epoch FROM started_at - created_at) * 1000 AS claimed_ms,
           extract(epoch FROM finished_at - started_at) * 1000 AS turn_ms
    FROM runs WHERE created_at >= $1 AND finished_at IS NOT NULL)
  SELECT (SELECT percentile_cont(ARRAY[0.5, 0.99]) WITHIN GROUP (ORDER BY ms) FROM inbox) AS routed,
         (SELECT percentile_cont(ARRAY[0.5, 0.99]) WITHIN GROUP (ORDER BY claimed_ms) FROM runs) AS claimed,
         (SELECT percentile_cont(ARRAY[0.5, 0.99]) WITHIN GROUP (ORDER BY turn_ms) FROM runs) AS turn`;

type Row = Record<keyof ReplyStages, number[] | null>;

/** The stages of the rows stored since `since` (the measured stretch's start), or null if none. */
export async function readReplyStages(client: Client, since: Date): Promise<ReplyStages | null> {
  const row = (await client.query<Row>(STAGES, [since])).rows[0];
  if (row === undefined || row.routed === null || row.claimed === null || row.turn === null) return null;
  const times = ([p50Ms, p99Ms]: number[]): StageTimes => ({ p50Ms: p50Ms ?? 0, p99Ms: p99Ms ?? 0 });
  return { routed: times(row.routed), claimed: times(row.claimed), turn: times(row.turn) };
}
