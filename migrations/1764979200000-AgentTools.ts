import type { MigrationInterface, QueryRunner } from 'typeorm';

const UP = [
  `ALTER TABLE questions ADD COLUMN options jsonb NOT NULL DEFAULT '[]'`,
  `CREATE INDEX ix_questions_pending ON questions (conversation_id, created_at, seq) WHERE status = 'pending'`,
];

const DOWN = ['DROP INDEX ix_questions_pending', 'ALTER TABLE questions DROP COLUMN options'];

/**
 * N13, M23: what the agent-to-agent tools need. A question card offers options (a JSON array
 * of strings, empty for a free-text question); `/answer 2` picks the second. A conversation's
 * pending questions are found by the partial index. Table grants cover the new column.
 */
export class AgentTools1764979200000 implements MigrationInterface {
  readonly name = 'AgentTools1764979200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const sql of UP) await queryRunner.query(sql);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const sql of DOWN) await queryRunner.query(sql);
  }
}
