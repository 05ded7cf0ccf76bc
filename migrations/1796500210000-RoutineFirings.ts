import type { MigrationInterface, QueryRunner } from 'typeorm';

const CURRENT_WORKSPACE = `nullif(current_setting('summon.workspace_id', true), '')::uuid`;

const UP = [
  // W2: one row per firing of a routine, keyed by (routine, scheduled time): the unique key is
  // the claim that makes a firing happen once across every worker and restart. W3: `missed`
  // lists the scheduled times a downtime passed. `outcome`: `claimed` (stored, its thread not
  // yet posted), `started` (its run queued; the run tells how it went), `skipped` (W3),
  // `failed` (with `reason`: no channel, the post failed), `over_budget` (W4).
  `CREATE TABLE routine_firings (
    id uuid NOT NULL DEFAULT gen_random_uuid(),
    workspace_id uuid NOT NULL,
    routine_id uuid NOT NULL,
    scheduled_for timestamptz NOT NULL,
    fired_at timestamptz NOT NULL,
    missed jsonb NOT NULL DEFAULT '[]',
    outcome text NOT NULL,
    reason text,
    conversation_id uuid,
    run_id uuid,
    CONSTRAINT pk_routine_firings PRIMARY KEY (id),
    CONSTRAINT uq_routine_firings_time UNIQUE (routine_id, scheduled_for),
    CONSTRAINT fk_routine_firings_routine FOREIGN KEY (routine_id, workspace_id)
      REFERENCES routines (id, workspace_id) ON DELETE CASCADE,
    CONSTRAINT fk_routine_firings_conversation FOREIGN KEY (conversation_id)
      REFERENCES conversations (id) ON DELETE SET NULL,
    CONSTRAINT fk_routine_firings_run FOREIGN KEY (run_id) REFERENCES runs (id) ON DELETE SET NULL,
    CONSTRAINT ck_routine_firings_outcome CHECK (outcome IN ('claimed', 'started', 'skipped', 'failed', 'over_budget'))
  )`,
  // W2: the sweep finds firings left `claimed` by a process that died before posting.
  `CREATE INDEX ix_routine_firings_claimed ON routine_firings (fired_at) WHERE outcome = 'claimed'`,
  'CREATE INDEX ix_routine_firings_run ON routine_firings (run_id)',
  'CREATE INDEX ix_routine_firings_conversation ON routine_firings (conversation_id)',
  // A2: the same tenant isolation as every other workspace table.
  'GRANT SELECT, INSERT, UPDATE, DELETE ON routine_firings TO summon_tenant',
  'ALTER TABLE routine_firings ENABLE ROW LEVEL SECURITY',
  `CREATE POLICY tenant_isolation ON routine_firings USING (workspace_id = ${CURRENT_WORKSPACE}) WITH CHECK (workspace_id = ${CURRENT_WORKSPACE})`,
];

const DOWN = ['DROP TABLE routine_firings'];

/** W2, W3: each routine's firings, claimed once per scheduled time. */
export class RoutineFirings1796500210000 implements MigrationInterface {
  readonly name = 'RoutineFirings1796500210000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const sql of UP) await queryRunner.query(sql);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const sql of DOWN) await queryRunner.query(sql);
  }
}
