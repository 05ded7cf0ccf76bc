import type { MigrationInterface, QueryRunner } from 'typeorm';

const CURRENT_WORKSPACE = `nullif(current_setting('summon.workspace_id', true), '')::uuid`;

const UP = [
  // T2: where a built-in runner's turn stands at its last tool boundary: the model transcript
  // (the runner's own API messages), the round of tool calls in progress, the status card.
  // One row per run, replaced at each boundary, gone when the run ends. approval_id: the
  // approval the in-flight call waits for (it has not run yet); parked_at: no process holds
  // the turn (its worker died while it waited), so the decision re-enqueues it.
  `CREATE TABLE run_checkpoints (
    run_id uuid NOT NULL,
    workspace_id uuid NOT NULL,
    checkpoint jsonb NOT NULL DEFAULT '{}',
    step integer NOT NULL DEFAULT 0,
    status_card_ref text,
    approval_id uuid,
    parked_at timestamptz,
    updated_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT pk_run_checkpoints PRIMARY KEY (run_id),
    CONSTRAINT fk_run_checkpoints_run FOREIGN KEY (run_id, workspace_id)
      REFERENCES runs (id, workspace_id) ON DELETE CASCADE,
    CONSTRAINT ck_run_checkpoints_parked CHECK (parked_at IS NULL OR approval_id IS NOT NULL)
  )`,
  // A2: the same tenant isolation as every other workspace table.
  'GRANT SELECT, INSERT, UPDATE, DELETE ON run_checkpoints TO summon_tenant',
  'ALTER TABLE run_checkpoints ENABLE ROW LEVEL SECURITY',
  `CREATE POLICY tenant_isolation ON run_checkpoints USING (workspace_id = ${CURRENT_WORKSPACE}) WITH CHECK (workspace_id = ${CURRENT_WORKSPACE})`,
];

const DOWN = ['DROP TABLE run_checkpoints'];

/** T2: durable turns: each built-in runner's checkpoint at its last tool boundary. */
export class RunCheckpoints1796131142680 implements MigrationInterface {
  readonly name = 'RunCheckpoints1796131142680';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const sql of UP) await queryRunner.query(sql);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const sql of DOWN) await queryRunner.query(sql);
  }
}
