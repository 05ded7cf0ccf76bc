import type { MigrationInterface, QueryRunner } from 'typeorm';

const CURRENT_WORKSPACE = `nullif(current_setting('summon.workspace_id', true), '')::uuid`;
const TABLES = ['git_credentials', 'git_pushes'] as const;

const UP = [
  // G3: a per-run gateway credential; only its SHA-256 is stored.
  `CREATE TABLE git_credentials (
    id uuid NOT NULL DEFAULT gen_random_uuid(),
    seq bigserial NOT NULL,
    workspace_id uuid NOT NULL,
    run_id uuid NOT NULL,
    token_hash text NOT NULL,
    repos text[] NOT NULL DEFAULT '{}',
    created_at timestamptz NOT NULL DEFAULT now(),
    expires_at timestamptz NOT NULL,
    revoked_at timestamptz,
    CONSTRAINT pk_git_credentials PRIMARY KEY (id),
    CONSTRAINT uq_git_credentials_token_hash UNIQUE (token_hash),
    CONSTRAINT fk_git_credentials_run FOREIGN KEY (run_id, workspace_id)
      REFERENCES runs (id, workspace_id) ON DELETE CASCADE
  )`,
  'CREATE INDEX ix_git_credentials_run ON git_credentials (run_id)',
  // G2, G5: every push the gateway saw, what was decided and what became of it. approval_id
  // names the approval that gated it (both go with their run, so no reference is needed).
  `CREATE TABLE git_pushes (
    id uuid NOT NULL DEFAULT gen_random_uuid(),
    seq bigserial NOT NULL,
    workspace_id uuid NOT NULL,
    run_id uuid NOT NULL,
    repo text NOT NULL,
    updates jsonb NOT NULL DEFAULT '[]',
    decision text NOT NULL,
    status text NOT NULL,
    approval_id uuid,
    reason text NOT NULL DEFAULT '',
    created_at timestamptz NOT NULL DEFAULT now(),
    finished_at timestamptz,
    CONSTRAINT pk_git_pushes PRIMARY KEY (id),
    CONSTRAINT fk_git_pushes_run FOREIGN KEY (run_id, workspace_id)
      REFERENCES runs (id, workspace_id) ON DELETE CASCADE,
    CONSTRAINT ck_git_pushes_decision CHECK (decision IN ('allow', 'ask', 'deny')),
    CONSTRAINT ck_git_pushes_status CHECK (status IN ('waiting', 'forwarded', 'refused', 'abandoned', 'released'))
  )`,
  'CREATE INDEX ix_git_pushes_run ON git_pushes (run_id, repo, status)',
  'CREATE INDEX ix_git_pushes_created ON git_pushes (created_at, seq)',
  // A2: the same tenant isolation as every other workspace table.
  ...TABLES.flatMap((table) => [
    `GRANT SELECT, INSERT, UPDATE, DELETE ON ${table} TO summon_tenant`,
    `ALTER TABLE ${table} ENABLE ROW LEVEL SECURITY`,
    `CREATE POLICY tenant_isolation ON ${table} USING (workspace_id = ${CURRENT_WORKSPACE}) WITH CHECK (workspace_id = ${CURRENT_WORKSPACE})`,
    `GRANT USAGE ON SEQUENCE ${table}_seq_seq TO summon_tenant`,
  ]),
];

/**
 * The git gateway (G3, G5): per-run credentials, stored hashed and scoped to the run's space
 * repositories, and the log of pushes with their decisions (`summon gateway status`).
 */
export class GitGateway1764806400000 implements MigrationInterface {
  readonly name = 'GitGateway1764806400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const sql of UP) await queryRunner.query(sql);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of [...TABLES].reverse()) await queryRunner.query(`DROP TABLE ${table}`);
  }
}
