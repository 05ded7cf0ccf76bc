import type { EntityManager } from 'typeorm';
import type { UsageReportRow } from '../../../core/model/usage/usage-report';
import type { UsageCall, UsageRepository } from '../../../core/ports/usage-store';
import { isUuid } from '../ids';
import { deferStatement } from '../pending-statements';
import { PreparedStatement } from '../prepared-statement';
import { queryRecords } from '../query-records';
import { sqlLiteral, textLiteral } from '../statements-together';
import type { MoreTerms } from '../update-by-id';

interface SpentRow {
  tokens: string;
  usd: string;
}

interface ReportRow {
  name: string | null;
  runs: string;
  input: string;
  output: string;
  cache_read: string;
  cache_write: string;
  cost: string | null;
}

/**
 * The moment a run's usage counts at: when it started (a queued run has used nothing). O3:
 * `ix_runs_usage_period` is (workspace_id, this expression), so a period is a range of it.
 */
const RUN_MOMENT = 'coalesce(r.started_at, r.created_at)';

/**
 * O3: what a workspace's runs used since $2, of one agent ($3) or space ($4) when given: checked
 * before a turn starts and after each model call wherever a budget applies.
 */
export const USAGE_SPENT = `SELECT coalesce(sum(r.input_tokens + r.output_tokens + r.cache_read_tokens + r.cache_write_tokens), 0)::text AS tokens,
              coalesce(sum(r.cost_usd), 0)::text AS usd
         FROM runs r
         JOIN conversations c ON c.id = r.conversation_id AND c.workspace_id = r.workspace_id
        WHERE r.workspace_id = $1 AND ${RUN_MOMENT} >= $2
          AND ($3::uuid IS NULL OR r.agent_id = $3::uuid)
          AND ($4::uuid IS NULL OR c.space_id = $4::uuid)`;

const GROUPS = {
  agent: { join: 'JOIN agents g ON g.id = r.agent_id AND g.workspace_id = r.workspace_id', name: 'g.name' },
  space: {
    join: `JOIN conversations c ON c.id = r.conversation_id AND c.workspace_id = r.workspace_id
           JOIN spaces g ON g.id = c.space_id AND g.workspace_id = r.workspace_id`,
    name: 'g.name',
  },
  member: {
    join: 'LEFT JOIN members g ON g.id = r.started_by_member_id AND g.workspace_id = r.workspace_id',
    name: 'g.nickname',
  },
} as const;

/**
 * O3: the `SET` terms adding one model call's usage to its run, parameters numbered from `n`:
 * the model, the four token counts, the cost (NULL when its model has no price).
 */
const usageSet = (n: number): string[] => [
  `usage_model = coalesce(usage_model, $${n}::text)`,
  `input_tokens = input_tokens + $${n + 1}::bigint`,
  `output_tokens = output_tokens + $${n + 2}::bigint`,
  `cache_read_tokens = cache_read_tokens + $${n + 3}::bigint`,
  `cache_write_tokens = cache_write_tokens + $${n + 4}::bigint`,
  `cost_usd = CASE WHEN $${n + 5}::numeric IS NULL THEN cost_usd ELSE coalesce(cost_usd, 0) + $${n + 5}::numeric END`,
];

/**
 * One model call's usage added to its run ($1), prepared (T3: every turn's finish sends it). The
 * amounts go as text literals the parameters' types parse, as node-postgres sent them before.
 */
export const ADD_TO_RUN = new PreparedStatement(
  ['uuid', 'text', 'bigint', 'bigint', 'bigint', 'bigint', 'numeric'],
  `UPDATE runs SET ${usageSet(2).join(', ')} WHERE id = $1`,
);

const amountLiteral = (value: number): string => textLiteral(String(value));

/** A call's amounts as literals, in `ADD_TO_RUN`'s order after the run's id. */
const usageLiterals = (call: UsageCall): string[] => [
  textLiteral(call.model),
  amountLiteral(call.usage.inputTokens),
  amountLiteral(call.usage.outputTokens),
  amountLiteral(call.usage.cacheReadTokens),
  amountLiteral(call.usage.cacheWriteTokens),
  call.costUsd === undefined ? 'NULL' : amountLiteral(call.costUsd),
];

/**
 * O3, T3: `ADD_TO_RUN`'s terms, to be written by another update of the same run (its finish):
 * one statement and one row version rather than two.
 */
export const usageTerms = (call: UsageCall): MoreTerms => ({
  shape: 'usage',
  terms: usageSet,
  args: usageLiterals(call),
});

/** O3: usage lives on the runs (RunUsageAndBudgets migration); sums are done by PostgreSQL. */
export const usageRepository = (manager: EntityManager): UsageRepository => ({
  async tokensOfRuns(runIds) {
    const ids = runIds.filter(isUuid);
    if (ids.length === 0) return new Map();
    const rows = await queryRecords<{ id: string; tokens: string }>(
      manager,
      `SELECT id, input_tokens + output_tokens + cache_read_tokens + cache_write_tokens AS tokens
       FROM runs WHERE id = ANY($1::uuid[])`,
      [ids],
    );
    return new Map(rows.map((row) => [row.id, Number(row.tokens)]));
  },
  async addToRun(runId, call) {
    if (!isUuid(runId)) return;
    // T3: its answer is not read, so it goes with the transaction's next message (a finish's
    // other writes, or its COMMIT) rather than in a round trip of its own.
    await deferStatement(manager, ADD_TO_RUN.with(sqlLiteral(runId), ...usageLiterals(call)));
  },

  async spent(workspaceId, filter) {
    if (!isUuid(workspaceId)) return { tokens: 0, usd: 0 };
    const [row] = await queryRecords<SpentRow>(manager, USAGE_SPENT, [
      workspaceId,
      filter.since,
      filter.agentId ?? null,
      filter.spaceId ?? null,
    ]);
    return { tokens: Number(row?.tokens ?? 0), usd: Number(row?.usd ?? 0) };
  },

  async report(workspaceId, options) {
    if (!isUuid(workspaceId)) return [];
    const group = GROUPS[options.by];
    const rows = await queryRecords<ReportRow>(
      manager,
      `SELECT ${group.name} AS name, count(*)::text AS runs,
              sum(r.input_tokens)::text AS input, sum(r.output_tokens)::text AS output,
              sum(r.cache_read_tokens)::text AS cache_read, sum(r.cache_write_tokens)::text AS cache_write,
              sum(r.cost_usd)::text AS cost
         FROM runs r ${group.join}
        WHERE r.workspace_id = $1 AND ${RUN_MOMENT} >= $2 AND r.started_at IS NOT NULL
        GROUP BY ${group.name}
        ORDER BY sum(r.input_tokens + r.output_tokens + r.cache_read_tokens + r.cache_write_tokens) DESC, 1`,
      [workspaceId, options.since],
    );
    return rows.map(
      (row): UsageReportRow => ({
        name: row.name ?? '(an agent)',
        runs: Number(row.runs),
        usage: {
          inputTokens: Number(row.input),
          outputTokens: Number(row.output),
          cacheReadTokens: Number(row.cache_read),
          cacheWriteTokens: Number(row.cache_write),
        },
        costUsd: row.cost === null ? null : Number(row.cost),
      }),
    );
  },
});
