import type { MigrationInterface, QueryRunner } from 'typeorm';

const UP = [
  // O3: each run's token usage as its model calls reported it, the model it ran on, and its
  // cost in US dollars (null while no call of it had a price). Budgets sum these by period.
  `ALTER TABLE runs
     ADD COLUMN usage_model text,
     ADD COLUMN input_tokens bigint NOT NULL DEFAULT 0,
     ADD COLUMN output_tokens bigint NOT NULL DEFAULT 0,
     ADD COLUMN cache_read_tokens bigint NOT NULL DEFAULT 0,
     ADD COLUMN cache_write_tokens bigint NOT NULL DEFAULT 0,
     ADD COLUMN cost_usd numeric(20, 10),
     ADD CONSTRAINT ck_runs_usage CHECK (
       input_tokens >= 0 AND output_tokens >= 0 AND cache_read_tokens >= 0 AND cache_write_tokens >= 0
       AND (cost_usd IS NULL OR cost_usd >= 0))`,
  // `summon usage` and the budgets read a workspace's runs by the time they started.
  'CREATE INDEX ix_runs_usage_period ON runs (workspace_id, started_at)',
  // O3: the workspace file's `budgets`, validated by the workspace schema.
  `ALTER TABLE workspaces ADD COLUMN budgets jsonb NOT NULL DEFAULT '[]'`,
];

const DOWN = [
  'ALTER TABLE workspaces DROP COLUMN budgets',
  'DROP INDEX ix_runs_usage_period',
  `ALTER TABLE runs
     DROP CONSTRAINT ck_runs_usage,
     DROP COLUMN cost_usd,
     DROP COLUMN cache_write_tokens,
     DROP COLUMN cache_read_tokens,
     DROP COLUMN output_tokens,
     DROP COLUMN input_tokens,
     DROP COLUMN usage_model`,
];

/**
 * O3: token usage and cost on every run, and the workspace's budgets. The tables' grants and
 * row-level security policies cover the new columns.
 */
export class RunUsageAndBudgets1796131154563 implements MigrationInterface {
  readonly name = 'RunUsageAndBudgets1796131154563';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const sql of UP) await queryRunner.query(sql);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const sql of DOWN) await queryRunner.query(sql);
  }
}
