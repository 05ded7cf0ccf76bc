import { EntitySchema, type EntitySchemaColumnOptions } from 'typeorm';
import type { RunRecord } from '../../core/model/records';
import { RUN_LIVENESS, RUN_STATUSES } from '../../core/model/run';
import {
  createdAt,
  creationSeq,
  integer,
  oneOf,
  primaryId,
  sameWorkspaceForeignKey,
  text,
  timestamp,
  uuid,
  uuidArray,
} from './columns';

export interface RunRow extends RunRecord {
  seq: string;
  /** O3: the run's usage (read and summed with SQL in usage-repository.ts; pg returns bigint as text). */
  usageModel: string | null;
  inputTokens: string;
  outputTokens: string;
  cacheReadTokens: string;
  cacheWriteTokens: string;
  costUsd: string | null;
}

const tokens: EntitySchemaColumnOptions = { type: 'bigint', default: 0 };

/** A12: one execution of one agent; status and liveness are stored, live status is derived. */
export const RunEntity = new EntitySchema<RunRow>({
  name: 'runs',
  columns: {
    id: primaryId('runs'),
    seq: creationSeq,
    // T3: the key is (id, workspace_id), one index for every look-up by id and the tenant-scoped keys.
    workspaceId: { ...uuid(), primary: true, primaryKeyConstraintName: 'pk_runs' },
    agentId: uuid(),
    conversationId: uuid(),
    triggerMessageId: uuid(true),
    status: text({ default: 'queued' }),
    liveness: text({ default: 'ok' }),
    wakeChain: uuidArray,
    depth: integer({ default: 1 }),
    startedByMemberId: uuid(true),
    startedByAgentId: uuid(true),
    createdAt,
    startedAt: timestamp({ nullable: true }),
    finishedAt: timestamp({ nullable: true }),
    lastEventAt: timestamp({ nullable: true }),
    error: text({ nullable: true }),
    statusCardRef: text({ nullable: true }),
    replyMessageId: uuid(true),
    usageModel: text({ nullable: true }),
    inputTokens: tokens,
    outputTokens: tokens,
    cacheReadTokens: tokens,
    cacheWriteTokens: tokens,
    costUsd: { type: 'numeric', precision: 20, scale: 10, nullable: true },
  },
  foreignKeys: [
    sameWorkspaceForeignKey('fk_runs_agent', 'agentId', 'agents', 'CASCADE', { checkedAtCommit: true }),
    sameWorkspaceForeignKey('fk_runs_conversation', 'conversationId', 'conversations', 'CASCADE', {
      checkedAtCommit: true,
    }),
    sameWorkspaceForeignKey('fk_runs_trigger_message', 'triggerMessageId', 'messages', 'SET NULL', {
      checkedAtCommit: true,
    }),
    sameWorkspaceForeignKey('fk_runs_started_by_member', 'startedByMemberId', 'members', 'SET NULL', {
      checkedAtCommit: true,
    }),
    sameWorkspaceForeignKey('fk_runs_started_by_agent', 'startedByAgentId', 'agents', 'SET NULL', {
      checkedAtCommit: true,
    }),
    sameWorkspaceForeignKey('fk_runs_reply_message', 'replyMessageId', 'messages', 'SET NULL', {
      checkedAtCommit: true,
    }),
  ],
  checks: [
    { name: 'ck_runs_status', expression: oneOf('status', RUN_STATUSES) },
    { name: 'ck_runs_liveness', expression: oneOf('liveness', RUN_LIVENESS) },
    { name: 'ck_runs_depth', expression: 'depth >= 0' },
    {
      name: 'ck_runs_started_by',
      expression: 'num_nonnulls(started_by_member_id, started_by_agent_id) <= 1',
    },
    {
      name: 'ck_runs_usage',
      expression:
        'input_tokens >= 0 AND output_tokens >= 0 AND cache_read_tokens >= 0 AND cache_write_tokens >= 0 AND (cost_usd IS NULL OR cost_usd >= 0)',
    },
  ],
  indices: [
    { name: 'ix_runs_agent_recent', columns: ['agentId', 'createdAt', 'seq'] },
    // One turn at a time per (agent, conversation): `claimNext` reads a lane's running and oldest
    // queued runs; led by the conversation, it also serves reads of a conversation's runs.
    { name: 'ix_runs_lane', columns: ['conversationId', 'agentId', 'status', 'createdAt', 'seq'] },
    // Start-up recovery, the silence watchdog and the queue's command list the live runs by age
    // by `(status IN ('queued', 'running'))`, which leads it (an expression: migration
    // 1796800370000); the claim's reads never name it, so they keep to `ix_runs_lane` (T3).
    { name: 'ix_runs_live', columns: ['createdAt', 'seq'], synchronize: false },
    // O3: usage and budgets by period, of (workspace_id, coalesce(started_at, created_at)): an
    // expression index, declared here under the migration's name only.
    { name: 'ix_runs_usage_period', columns: ['workspaceId'], synchronize: false },
  ],
});
