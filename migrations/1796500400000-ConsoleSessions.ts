import type { MigrationInterface, QueryRunner } from 'typeorm';

const CURRENT_WORKSPACE = `nullif(current_setting('summon.workspace_id', true), '')::uuid`;

const UP = [
  // O5: a member's web console session, or a one-time sign-in link (`summon console link`):
  // only the sha-256 of its token is stored; looked up by hash across workspaces, since the
  // token says whose it is. `role` is the member's role when it began: a change ends it.
  `CREATE TABLE console_sessions (
    id uuid NOT NULL DEFAULT gen_random_uuid(),
    workspace_id uuid NOT NULL,
    member_id uuid NOT NULL,
    kind text NOT NULL,
    token_hash text NOT NULL,
    csrf_token text NOT NULL,
    role text NOT NULL,
    via text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    expires_at timestamptz NOT NULL,
    revoked_at timestamptz,
    CONSTRAINT pk_console_sessions PRIMARY KEY (id),
    CONSTRAINT ck_console_sessions_kind CHECK (kind IN ('session', 'link')),
    CONSTRAINT fk_console_sessions_workspace FOREIGN KEY (workspace_id) REFERENCES workspaces (id) ON DELETE CASCADE,
    CONSTRAINT fk_console_sessions_member FOREIGN KEY (member_id, workspace_id)
      REFERENCES members (id, workspace_id) ON DELETE CASCADE,
    CONSTRAINT uq_console_sessions_hash UNIQUE (token_hash)
  )`,
  'CREATE INDEX ix_console_sessions_member ON console_sessions (member_id)',
  // A2: the same tenant isolation as every other workspace table.
  'GRANT SELECT, INSERT, UPDATE, DELETE ON console_sessions TO summon_tenant',
  'ALTER TABLE console_sessions ENABLE ROW LEVEL SECURITY',
  `CREATE POLICY tenant_isolation ON console_sessions USING (workspace_id = ${CURRENT_WORKSPACE}) WITH CHECK (workspace_id = ${CURRENT_WORKSPACE})`,
];

/** O5: the web console's sessions and one-time sign-in links, stored hashed. */
export class ConsoleSessions1796500400000 implements MigrationInterface {
  readonly name = 'ConsoleSessions1796500400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const sql of UP) await queryRunner.query(sql);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE console_sessions');
  }
}
