import type { MigrationInterface, QueryRunner } from 'typeorm';

const CURRENT_WORKSPACE = `nullif(current_setting('summon.workspace_id', true), '')::uuid`;

const UP = [
  // W1: a routine owned by a space: an agent, a prompt and one trigger. `next_due_at` is the
  // next scheduled time not yet fired (W2), NULL when nothing is scheduled.
  `CREATE TABLE routines (
    id uuid NOT NULL DEFAULT gen_random_uuid(),
    seq bigserial NOT NULL,
    workspace_id uuid NOT NULL,
    space_id uuid NOT NULL,
    agent_id uuid NOT NULL,
    name text NOT NULL,
    prompt text NOT NULL,
    trigger jsonb NOT NULL,
    on_missed text NOT NULL DEFAULT 'runOnce',
    budget jsonb,
    paused boolean NOT NULL DEFAULT false,
    next_due_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT pk_routines PRIMARY KEY (id),
    CONSTRAINT uq_routines_id_workspace UNIQUE (id, workspace_id),
    CONSTRAINT uq_routines_name UNIQUE (space_id, name),
    CONSTRAINT fk_routines_space FOREIGN KEY (space_id, workspace_id)
      REFERENCES spaces (id, workspace_id) ON DELETE CASCADE,
    CONSTRAINT fk_routines_agent FOREIGN KEY (agent_id, workspace_id)
      REFERENCES agents (id, workspace_id) ON DELETE CASCADE,
    CONSTRAINT ck_routines_name CHECK (name ~ '^[a-z0-9][a-z0-9_-]*$' AND length(name) <= 63),
    CONSTRAINT ck_routines_on_missed CHECK (on_missed IN ('runOnce', 'skip')),
    CONSTRAINT ck_routines_trigger CHECK (trigger ->> 'kind' IN ('schedule', 'at', 'webhook'))
  )`,
  // W2: the scheduler's sweep reads the due routines of every workspace by this index.
  'CREATE INDEX ix_routines_due ON routines (next_due_at) WHERE NOT paused AND next_due_at IS NOT NULL',
  // A2: the same tenant isolation as every other workspace table.
  'GRANT SELECT, INSERT, UPDATE, DELETE ON routines TO summon_tenant',
  'GRANT USAGE ON SEQUENCE routines_seq_seq TO summon_tenant',
  'ALTER TABLE routines ENABLE ROW LEVEL SECURITY',
  `CREATE POLICY tenant_isolation ON routines USING (workspace_id = ${CURRENT_WORKSPACE}) WITH CHECK (workspace_id = ${CURRENT_WORKSPACE})`,
];

const DOWN = ['DROP TABLE routines'];

/** W1: routines owned by spaces. */
export class Routines1796500200000 implements MigrationInterface {
  readonly name = 'Routines1796500200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const sql of UP) await queryRunner.query(sql);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const sql of DOWN) await queryRunner.query(sql);
  }
}
