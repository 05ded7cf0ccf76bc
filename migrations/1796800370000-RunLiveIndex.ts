import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * T3: `ix_runs_status` led by the status, so the planner took it for the claim's own reads
 * ("this lane's oldest queued run", "is one of this lane's running"): it believed a live status
 * rare (history is all finished runs), and both indexes looked alike for one row. Every run
 * passes through `queued` and `running`, and under load that index holds, for those values, an
 * entry for each version a claim or finish left dead until vacuum: each claim walked them,
 * hundreds of buffers a claim. The scans by status (start-up recovery, the silence watchdog,
 * the queue's command) read only live runs: they name `(status IN ('queued', 'running'))`,
 * which leads this index. The claim's reads do not name it, so only `ix_runs_lane` gives them
 * an index condition, however the statistics stand.
 */
export class RunLiveIndex1796800370000 implements MigrationInterface {
  readonly name = 'RunLiveIndex1796800370000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      "CREATE INDEX ix_runs_live ON runs ((status IN ('queued', 'running')), created_at, seq)",
    );
    await queryRunner.query('DROP INDEX ix_runs_status');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('CREATE INDEX ix_runs_status ON runs (status, created_at, seq)');
    await queryRunner.query('DROP INDEX ix_runs_live');
  }
}
