import { EntitySchema } from 'typeorm';
import type { McpServerSpec } from '../../core/model/mcp/mcp-server';
import {
  createdAt,
  creationSeq,
  integer,
  primaryId,
  sameWorkspaceForeignKey,
  text,
  uuid,
  workspaceForeignKey,
} from './columns';

/** E1: a declared MCP server; E2: `spec` keeps its `${env:NAME}` references unexpanded. */
export interface McpServerRow {
  id: string;
  seq: string;
  workspaceId: string;
  name: string;
  spec: McpServerSpec;
  createdAt: Date;
}

export const McpServerEntity = new EntitySchema<McpServerRow>({
  name: 'mcp_servers',
  columns: {
    id: primaryId('mcp_servers'),
    seq: creationSeq,
    workspaceId: uuid(),
    name: text(),
    spec: { type: 'jsonb' },
    createdAt,
  },
  foreignKeys: [workspaceForeignKey('mcp_servers')],
  checks: [
    {
      name: 'ck_mcp_servers_name',
      expression: "name ~ '^[a-z0-9][a-z0-9_-]*$' AND length(name) <= 24",
    },
    {
      name: 'ck_mcp_servers_spec',
      expression: "spec ->> 'name' = name AND spec ->> 'transport' IN ('stdio', 'http')",
    },
  ],
  uniques: [
    { name: 'uq_mcp_servers_id_workspace', columns: ['id', 'workspaceId'] },
    { name: 'uq_mcp_servers_name', columns: ['workspaceId', 'name'] },
  ],
});

/** E1: a server given to a space or to an agent; `position` keeps the file's order. */
export interface McpServerAssignmentRow {
  id: string;
  workspaceId: string;
  mcpServerId: string;
  spaceId: string | null;
  agentId: string | null;
  position: number;
}

export const McpServerAssignmentEntity = new EntitySchema<McpServerAssignmentRow>({
  name: 'mcp_server_assignments',
  columns: {
    id: primaryId('mcp_server_assignments'),
    workspaceId: uuid(),
    mcpServerId: uuid(),
    spaceId: uuid(true),
    agentId: uuid(true),
    position: integer(),
  },
  foreignKeys: [
    sameWorkspaceForeignKey('fk_mcp_server_assignments_server', 'mcpServerId', 'mcp_servers', 'CASCADE'),
    sameWorkspaceForeignKey('fk_mcp_server_assignments_space', 'spaceId', 'spaces', 'CASCADE'),
    sameWorkspaceForeignKey('fk_mcp_server_assignments_agent', 'agentId', 'agents', 'CASCADE'),
  ],
  checks: [
    { name: 'ck_mcp_server_assignments_one_target', expression: 'num_nonnulls(space_id, agent_id) = 1' },
  ],
  uniques: [
    { name: 'uq_mcp_server_assignments_space', columns: ['spaceId', 'mcpServerId'] },
    { name: 'uq_mcp_server_assignments_agent', columns: ['agentId', 'mcpServerId'] },
  ],
  indices: [{ name: 'ix_mcp_server_assignments_server', columns: ['mcpServerId'] }],
});
