import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * O3: the budgets (checked before each turn and after each model call wherever one applies) and
 * `summon usage` read a period of `coalesce(started_at, created_at)`, which
 * `ix_runs_usage_period` on (workspace_id, started_at) served by the workspace alone: every run
 * the workspace ever had, each time. It is now on that expression. T3: a run's three writes
 * (stored, claimed, finished: never HOT, status is indexed) write into it as before.
 */
export class RunUsagePeriodExpression1796800381000 implements MigrationInterface {
  readonly name = 'RunUsagePeriodExpression1796800381000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX ix_runs_usage_period');
    await queryRunner.query(
      'CREATE INDEX ix_runs_usage_period ON runs (workspace_id, (coalesce(started_at, created_at)))',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX ix_runs_usage_period');
    await queryRunner.query('CREATE INDEX ix_runs_usage_period ON runs (workspace_id, started_at)');
  }
}
