import type { MigrationInterface, QueryRunner } from 'typeorm';

const CURRENT_WORKSPACE = `nullif(current_setting('summon.workspace_id', true), '')::uuid`;

const tenantTable = (table: string) => [
  // A2: the same tenant isolation as every other workspace table.
  `GRANT SELECT, INSERT, UPDATE, DELETE ON ${table} TO summon_tenant`,
  `ALTER TABLE ${table} ENABLE ROW LEVEL SECURITY`,
  `CREATE POLICY tenant_isolation ON ${table} USING (workspace_id = ${CURRENT_WORKSPACE}) WITH CHECK (workspace_id = ${CURRENT_WORKSPACE})`,
];

const UP = [
  // E5: the client registration a server's authorization server gave Summon (dynamic client
  // registration), sealed: it holds the client secret.
  `CREATE TABLE mcp_oauth_clients (
    workspace_id uuid NOT NULL,
    server text NOT NULL,
    client_sealed text NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT pk_mcp_oauth_clients PRIMARY KEY (workspace_id, server),
    CONSTRAINT fk_mcp_oauth_clients_workspace FOREIGN KEY (workspace_id) REFERENCES workspaces (id) ON DELETE CASCADE
  )`,
  ...tenantTable('mcp_oauth_clients'),
  // E5: tokens per server and owner: a member's (tokens: member) or the workspace's (member_id
  // NULL, one per server). Sealed; the access token's expiry in clear to plan the refresh.
  `CREATE TABLE mcp_oauth_tokens (
    id uuid NOT NULL DEFAULT gen_random_uuid(),
    workspace_id uuid NOT NULL,
    server text NOT NULL,
    member_id uuid,
    tokens_sealed text NOT NULL,
    expires_at timestamptz,
    updated_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT pk_mcp_oauth_tokens PRIMARY KEY (id),
    CONSTRAINT fk_mcp_oauth_tokens_workspace FOREIGN KEY (workspace_id) REFERENCES workspaces (id) ON DELETE CASCADE,
    CONSTRAINT fk_mcp_oauth_tokens_member FOREIGN KEY (member_id, workspace_id)
      REFERENCES members (id, workspace_id) ON DELETE CASCADE,
    CONSTRAINT uq_mcp_oauth_tokens_owner UNIQUE NULLS NOT DISTINCT (workspace_id, server, member_id)
  )`,
  ...tenantTable('mcp_oauth_tokens'),
  // E5: an authorization link handed out: the state only hashed, the PKCE verifier sealed,
  // whose tokens it makes; used once, before it expires.
  `CREATE TABLE mcp_oauth_pending (
    id uuid NOT NULL DEFAULT gen_random_uuid(),
    workspace_id uuid NOT NULL,
    server text NOT NULL,
    server_url text NOT NULL,
    member_id uuid,
    state_hash text NOT NULL,
    verifier_sealed text NOT NULL,
    expires_at timestamptz NOT NULL,
    used_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT pk_mcp_oauth_pending PRIMARY KEY (id),
    CONSTRAINT fk_mcp_oauth_pending_workspace FOREIGN KEY (workspace_id) REFERENCES workspaces (id) ON DELETE CASCADE,
    CONSTRAINT fk_mcp_oauth_pending_member FOREIGN KEY (member_id, workspace_id)
      REFERENCES members (id, workspace_id) ON DELETE CASCADE,
    CONSTRAINT uq_mcp_oauth_pending_state UNIQUE (state_hash)
  )`,
  'CREATE INDEX ix_mcp_oauth_pending_expires ON mcp_oauth_pending (expires_at)',
  ...tenantTable('mcp_oauth_pending'),
];

const DOWN = ['DROP TABLE mcp_oauth_pending', 'DROP TABLE mcp_oauth_tokens', 'DROP TABLE mcp_oauth_clients'];

/** E5: OAuth for remote MCP servers: client registrations, sealed tokens, pending links. */
export class McpOAuth1796400400000 implements MigrationInterface {
  readonly name = 'McpOAuth1796400400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const sql of UP) await queryRunner.query(sql);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const sql of DOWN) await queryRunner.query(sql);
  }
}
