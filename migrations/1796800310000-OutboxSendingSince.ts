import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * P7, T2, A12: when a call was marked `sending`. Several workers share one outbox; a restart
 * fails only the calls whose mark is older than any live sender holds one (its sender died),
 * never one another live worker is sending right now.
 */
export class OutboxSendingSince1796800310000 implements MigrationInterface {
  readonly name = 'OutboxSendingSince1796800310000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE outbox ADD COLUMN sending_since timestamptz');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE outbox DROP COLUMN sending_since');
  }
}
