import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The Slack front end: P7's outbox delivers the calls of one lane (a thread) one at a time, in
 * the order they were stored, and resumes them per platform after a restart.
 */
const UP = [
  `ALTER TABLE outbox ADD COLUMN lane text NOT NULL DEFAULT ''`,
  'CREATE INDEX ix_outbox_lane ON outbox (platform, status, seq)',
];

const DOWN = ['DROP INDEX ix_outbox_lane', 'ALTER TABLE outbox DROP COLUMN lane'];

export class SlackFrontEnd1764720000000 implements MigrationInterface {
  name = 'SlackFrontEnd1764720000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const statement of UP) await queryRunner.query(statement);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const statement of DOWN) await queryRunner.query(statement);
  }
}
