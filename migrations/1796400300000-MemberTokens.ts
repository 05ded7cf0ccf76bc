import type { MigrationInterface, QueryRunner } from 'typeorm';

const CURRENT_WORKSPACE = `nullif(current_setting('summon.workspace_id', true), '')::uuid`;

const UP = [
  // E6: a member's personal token for Summon's MCP endpoint: only its sha-256 is stored (the
  // token is shown once); looked up by hash across workspaces, since the token says whose it is.
  `CREATE TABLE member_tokens (
    id uuid NOT NULL DEFAULT gen_random_uuid(),
    workspace_id uuid NOT NULL,
    member_id uuid NOT NULL,
    token_hash text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    last_used_at timestamptz,
    revoked_at timestamptz,
    CONSTRAINT pk_member_tokens PRIMARY KEY (id),
    CONSTRAINT fk_member_tokens_workspace FOREIGN KEY (workspace_id) REFERENCES workspaces (id) ON DELETE CASCADE,
    CONSTRAINT fk_member_tokens_member FOREIGN KEY (member_id, workspace_id)
      REFERENCES members (id, workspace_id) ON DELETE CASCADE,
    CONSTRAINT uq_member_tokens_hash UNIQUE (token_hash)
  )`,
  'CREATE INDEX ix_member_tokens_member ON member_tokens (member_id)',
  // A2: the same tenant isolation as every other workspace table.
  'GRANT SELECT, INSERT, UPDATE, DELETE ON member_tokens TO summon_tenant',
  'ALTER TABLE member_tokens ENABLE ROW LEVEL SECURITY',
  `CREATE POLICY tenant_isolation ON member_tokens USING (workspace_id = ${CURRENT_WORKSPACE}) WITH CHECK (workspace_id = ${CURRENT_WORKSPACE})`,
];

/** E6: members' personal tokens for `/mcp`, stored hashed. */
export class MemberTokens1796400300000 implements MigrationInterface {
  readonly name = 'MemberTokens1796400300000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const sql of UP) await queryRunner.query(sql);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE member_tokens');
  }
}
