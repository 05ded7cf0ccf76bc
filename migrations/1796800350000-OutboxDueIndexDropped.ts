import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * P7, T3: every read of the outbox by status names its platform too (a lane's calls, the calls a
 * restart fails, the pruning of finished ones), and `ix_outbox_lane` (platform, status, seq)
 * serves them all; `ix_outbox_due` served none, yet each call's row gave it an entry when written
 * and another at each change of status (the mark `sent`: status is indexed, so no HOT update).
 */
export class OutboxDueIndexDropped1796800350000 implements MigrationInterface {
  readonly name = 'OutboxDueIndexDropped1796800350000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX ix_outbox_due');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('CREATE INDEX ix_outbox_due ON outbox (status, available_at, seq)');
  }
}
