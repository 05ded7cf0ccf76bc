import type { MigrationInterface, QueryRunner } from 'typeorm';

const CURRENT_WORKSPACE = `nullif(current_setting('summon.workspace_id', true), '')::uuid`;

const UP = [
  // P16: what a person's message does while an agent's built-in turn runs in the space.
  `ALTER TABLE spaces
     ADD COLUMN while_running text NOT NULL DEFAULT 'steer',
     ADD CONSTRAINT ck_spaces_while_running CHECK (while_running IN ('steer', 'queue'))`,
  // P16: a person's message that steers a running turn, until the turn takes it at a tool
  // boundary (taken, in the transaction of that boundary's checkpoint, T2) or ends without it
  // (queued: a turn of its own starts, as without steering). The text and the sender are the
  // message's own.
  `CREATE TABLE run_steering (
    id uuid NOT NULL DEFAULT gen_random_uuid(),
    seq bigserial NOT NULL,
    workspace_id uuid NOT NULL,
    run_id uuid NOT NULL,
    message_id uuid NOT NULL,
    state text NOT NULL DEFAULT 'pending',
    created_at timestamptz NOT NULL DEFAULT now(),
    settled_at timestamptz,
    CONSTRAINT pk_run_steering PRIMARY KEY (id),
    CONSTRAINT fk_run_steering_run FOREIGN KEY (run_id, workspace_id)
      REFERENCES runs (id, workspace_id) ON DELETE CASCADE,
    CONSTRAINT fk_run_steering_message FOREIGN KEY (message_id, workspace_id)
      REFERENCES messages (id, workspace_id) ON DELETE CASCADE,
    CONSTRAINT ck_run_steering_state CHECK (state IN ('pending', 'taken', 'queued')),
    CONSTRAINT ck_run_steering_settled CHECK ((state = 'pending') = (settled_at IS NULL))
  )`,
  `CREATE INDEX ix_run_steering_pending ON run_steering (run_id, created_at, seq) WHERE state = 'pending'`,
  // A2: the same tenant isolation as every other workspace table.
  'GRANT SELECT, INSERT, UPDATE, DELETE ON run_steering TO summon_tenant',
  'GRANT USAGE ON SEQUENCE run_steering_seq_seq TO summon_tenant',
  'ALTER TABLE run_steering ENABLE ROW LEVEL SECURITY',
  `CREATE POLICY tenant_isolation ON run_steering USING (workspace_id = ${CURRENT_WORKSPACE}) WITH CHECK (workspace_id = ${CURRENT_WORKSPACE})`,
];

const DOWN = [
  'DROP TABLE run_steering',
  'ALTER TABLE spaces DROP CONSTRAINT ck_spaces_while_running, DROP COLUMN while_running',
];

/** P16: steering a running turn: the space's `whileRunning` and the messages waiting to join a turn. */
export class RunSteering1796141203608 implements MigrationInterface {
  readonly name = 'RunSteering1796141203608';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const sql of UP) await queryRunner.query(sql);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const sql of DOWN) await queryRunner.query(sql);
  }
}
