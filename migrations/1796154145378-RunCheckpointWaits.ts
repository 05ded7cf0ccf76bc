import type { MigrationInterface, QueryRunner } from 'typeorm';

const UP = [
  // T2, A9: what the in-flight call of a checkpointed turn waits on besides an approval: a
  // question card (`question`, ask_question) or another agent's run (`run`, ask_agent,
  // delegate_task), and until when (null: no end). A turn whose worker died while it waited is
  // parked on it, like one waiting on an approval, and its answer or end re-enqueues it.
  `ALTER TABLE run_checkpoints
     ADD COLUMN awaits_kind text,
     ADD COLUMN awaits_id uuid,
     ADD COLUMN awaits_until timestamptz,
     ADD CONSTRAINT ck_run_checkpoints_awaits CHECK (
       (awaits_kind IS NULL AND awaits_id IS NULL AND awaits_until IS NULL)
       OR (awaits_kind IN ('question', 'run') AND awaits_id IS NOT NULL))`,
  'ALTER TABLE run_checkpoints DROP CONSTRAINT ck_run_checkpoints_parked',
  `ALTER TABLE run_checkpoints ADD CONSTRAINT ck_run_checkpoints_parked
     CHECK (parked_at IS NULL OR approval_id IS NOT NULL OR awaits_id IS NOT NULL)`,
  // The turns parked on a run that just ended are found by it.
  `CREATE INDEX ix_run_checkpoints_awaits_run ON run_checkpoints (awaits_id) WHERE awaits_kind = 'run'`,
];

const DOWN = [
  'DROP INDEX ix_run_checkpoints_awaits_run',
  // A turn parked on a question or a run is no longer parked: recovery resumes it, its call interrupted.
  'UPDATE run_checkpoints SET parked_at = NULL WHERE approval_id IS NULL',
  'ALTER TABLE run_checkpoints DROP CONSTRAINT ck_run_checkpoints_parked',
  `ALTER TABLE run_checkpoints ADD CONSTRAINT ck_run_checkpoints_parked
     CHECK (parked_at IS NULL OR approval_id IS NOT NULL)`,
  `ALTER TABLE run_checkpoints DROP CONSTRAINT ck_run_checkpoints_awaits,
     DROP COLUMN awaits_until, DROP COLUMN awaits_id, DROP COLUMN awaits_kind`,
];

/** T2, A9: a checkpointed turn waiting on a question or another agent survives a crash. */
export class RunCheckpointWaits1796154145378 implements MigrationInterface {
  readonly name = 'RunCheckpointWaits1796154145378';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const sql of UP) await queryRunner.query(sql);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const sql of DOWN) await queryRunner.query(sql);
  }
}
