import type { MigrationInterface, QueryRunner } from 'typeorm';

const CURRENT_WORKSPACE = `nullif(current_setting('summon.workspace_id', true), '')::uuid`;

const tenantTable = (table: string) => [
  // A2: the same tenant isolation as every other workspace table.
  `GRANT SELECT, INSERT, UPDATE, DELETE ON ${table} TO summon_tenant`,
  `ALTER TABLE ${table} ENABLE ROW LEVEL SECURITY`,
  `CREATE POLICY tenant_isolation ON ${table} USING (workspace_id = ${CURRENT_WORKSPACE}) WITH CHECK (workspace_id = ${CURRENT_WORKSPACE})`,
];

const UP = [
  // E1: a server the workspace file declares. E2: `spec` is the entry as written, its
  // `${env:NAME}` references unexpanded: no credential is stored in clear.
  `CREATE TABLE mcp_servers (
    id uuid NOT NULL DEFAULT gen_random_uuid(),
    seq bigserial NOT NULL,
    workspace_id uuid NOT NULL,
    name text NOT NULL,
    spec jsonb NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT pk_mcp_servers PRIMARY KEY (id),
    CONSTRAINT fk_mcp_servers_workspace FOREIGN KEY (workspace_id) REFERENCES workspaces (id) ON DELETE CASCADE,
    CONSTRAINT uq_mcp_servers_id_workspace UNIQUE (id, workspace_id),
    CONSTRAINT uq_mcp_servers_name UNIQUE (workspace_id, name),
    CONSTRAINT ck_mcp_servers_name CHECK (name ~ '^[a-z0-9][a-z0-9_-]*$' AND length(name) <= 24),
    CONSTRAINT ck_mcp_servers_spec CHECK (spec ->> 'name' = name AND spec ->> 'transport' IN ('stdio', 'http'))
  )`,
  ...tenantTable('mcp_servers'),
  'GRANT USAGE ON SEQUENCE mcp_servers_seq_seq TO summon_tenant',
  // E1: a server given to a space or to an agent, in the order the file lists them; gone with
  // the server, the space or the agent.
  `CREATE TABLE mcp_server_assignments (
    id uuid NOT NULL DEFAULT gen_random_uuid(),
    workspace_id uuid NOT NULL,
    mcp_server_id uuid NOT NULL,
    space_id uuid,
    agent_id uuid,
    position integer NOT NULL,
    CONSTRAINT pk_mcp_server_assignments PRIMARY KEY (id),
    CONSTRAINT fk_mcp_server_assignments_server FOREIGN KEY (mcp_server_id, workspace_id)
      REFERENCES mcp_servers (id, workspace_id) ON DELETE CASCADE,
    CONSTRAINT fk_mcp_server_assignments_space FOREIGN KEY (space_id, workspace_id)
      REFERENCES spaces (id, workspace_id) ON DELETE CASCADE,
    CONSTRAINT fk_mcp_server_assignments_agent FOREIGN KEY (agent_id, workspace_id)
      REFERENCES agents (id, workspace_id) ON DELETE CASCADE,
    CONSTRAINT ck_mcp_server_assignments_one_target CHECK (num_nonnulls(space_id, agent_id) = 1),
    CONSTRAINT uq_mcp_server_assignments_space UNIQUE (space_id, mcp_server_id),
    CONSTRAINT uq_mcp_server_assignments_agent UNIQUE (agent_id, mcp_server_id)
  )`,
  // E1: forTurn reads by agent and by space; deleting a server finds its assignments.
  'CREATE INDEX ix_mcp_server_assignments_server ON mcp_server_assignments (mcp_server_id)',
  ...tenantTable('mcp_server_assignments'),
];

const DOWN = ['DROP TABLE mcp_server_assignments', 'DROP TABLE mcp_servers'];

/** E1, E2: the MCP servers a workspace declares, and the spaces and agents they are given to. */
export class McpServers1796400100000 implements MigrationInterface {
  readonly name = 'McpServers1796400100000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const sql of UP) await queryRunner.query(sql);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const sql of DOWN) await queryRunner.query(sql);
  }
}
