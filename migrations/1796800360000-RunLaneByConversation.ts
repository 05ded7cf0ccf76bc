import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * T3: a run's lane is an (agent, conversation) pair, and its reads name both: `ix_runs_lane`
 * led by the conversation serves them as before, and also what read runs by conversation alone
 * (a conversation's running runs, the cascade of its deletion), which `ix_runs_conversation`
 * served. A run is written three times on its way (stored, claimed, finished; status is
 * indexed, so never a HOT update), each time into every index: one index fewer.
 */
export class RunLaneByConversation1796800360000 implements MigrationInterface {
  readonly name = 'RunLaneByConversation1796800360000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX ix_runs_lane');
    await queryRunner.query(
      'CREATE INDEX ix_runs_lane ON runs (conversation_id, agent_id, status, created_at, seq)',
    );
    await queryRunner.query('DROP INDEX ix_runs_conversation');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('CREATE INDEX ix_runs_conversation ON runs (conversation_id)');
    await queryRunner.query('DROP INDEX ix_runs_lane');
    await queryRunner.query(
      'CREATE INDEX ix_runs_lane ON runs (agent_id, conversation_id, status, created_at, seq)',
    );
  }
}
