import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The Slack front end: P7's outbox keeps calls per lane (a thread) and may hold a call for a
 * channel no workspace owns yet (a refusal in an unlinked channel).
 */
const UP = [
  'ALTER TABLE outbox ALTER COLUMN workspace_id DROP NOT NULL',
  `ALTER TABLE outbox ADD COLUMN lane text NOT NULL DEFAULT ''`,
  'CREATE INDEX ix_outbox_lane ON outbox (platform, status, seq)',
];

const DOWN = [
  'DROP INDEX ix_outbox_lane',
  'ALTER TABLE outbox DROP COLUMN lane',
  'DELETE FROM outbox WHERE workspace_id IS NULL',
  'ALTER TABLE outbox ALTER COLUMN workspace_id SET NOT NULL',
];

export class SlackFrontEnd1764720000000 implements MigrationInterface {
  name = 'SlackFrontEnd1764720000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const statement of UP) await queryRunner.query(statement);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const statement of DOWN) await queryRunner.query(statement);
  }
}
