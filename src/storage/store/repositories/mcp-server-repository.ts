import type { EntityManager } from 'typeorm';
import { NotFoundError } from '../../../core/errors';
import type { McpServerRecord, McpServerSpec } from '../../../core/model/mcp/mcp-server';
import type { McpServerAssignment, McpServerRepository } from '../../../core/ports/mcp-server-store';
import { isUuid } from '../ids';
import { queryRecords } from '../query-records';

interface ServerRow {
  id: string;
  workspace_id: string;
  spec: McpServerSpec;
}

const toRecord = (row: ServerRow): McpServerRecord => ({
  id: row.id,
  workspaceId: row.workspace_id,
  spec: row.spec,
});

/** The current tenant (NULL in a system transaction, which then lists nothing). */
const CURRENT_WORKSPACE = `nullif(current_setting('summon.workspace_id', true), '')::uuid`;

/** E1: names are slugs; byte order ("C") sorts them the same on every database. */
const BY_NAME = 'ORDER BY s.name COLLATE "C"';

export const mcpServerRepository = (manager: EntityManager): McpServerRepository => {
  const servers = async (where: string, params: readonly unknown[]) =>
    (
      await queryRecords<ServerRow>(
        manager,
        `SELECT s.id, s.workspace_id, s.spec FROM mcp_servers s WHERE ${where} ${BY_NAME}`,
        params,
      )
    ).map(toRecord);

  return {
    list() {
      return servers(`s.workspace_id = ${CURRENT_WORKSPACE}`, []);
    },
    async forTurn(agentId, spaceId) {
      if (!isUuid(agentId)) return [];
      const space = spaceId !== null && isUuid(spaceId) ? spaceId : null;
      // E1: the union of the agent's and the space's, each once; the agent's workspace bounds
      // it, so a space id of another workspace adds nothing.
      const found = await servers(
        `s.workspace_id = (SELECT a.workspace_id FROM agents a WHERE a.id = $1)
         AND EXISTS (SELECT 1 FROM mcp_server_assignments m
                      WHERE m.mcp_server_id = s.id AND (m.agent_id = $1 OR m.space_id = $2::uuid))`,
        [agentId, space],
      );
      return found.map((record) => record.spec);
    },
    listForWorkspace(workspaceId) {
      if (!isUuid(workspaceId)) return Promise.resolve([]);
      return servers('s.workspace_id = $1', [workspaceId]);
    },
    async save(workspaceId, spec) {
      const [row] = await queryRecords<ServerRow>(
        manager,
        `INSERT INTO mcp_servers (workspace_id, name, spec) VALUES ($1, $2, $3::jsonb)
         ON CONFLICT ON CONSTRAINT uq_mcp_servers_name DO UPDATE SET spec = EXCLUDED.spec
         RETURNING id, workspace_id, spec`,
        [workspaceId, spec.name, JSON.stringify(spec)],
      );
      if (row === undefined) throw new NotFoundError(`No workspace with id ${workspaceId}.`);
      return toRecord(row);
    },
    async remove(workspaceId, name) {
      if (!isUuid(workspaceId)) return;
      await queryRecords(manager, 'DELETE FROM mcp_servers WHERE workspace_id = $1 AND name = $2', [
        workspaceId,
        name,
      ]);
    },
    async assignments(workspaceId) {
      if (!isUuid(workspaceId)) return [];
      const rows = await queryRecords<{ server: string; space_id: string | null; agent_id: string | null }>(
        manager,
        `SELECT s.name AS server, m.space_id, m.agent_id
           FROM mcp_server_assignments m JOIN mcp_servers s ON s.id = m.mcp_server_id
          WHERE m.workspace_id = $1
          ORDER BY m.space_id, m.agent_id, m.position`,
        [workspaceId],
      );
      return rows.map(
        (row): McpServerAssignment => ({ server: row.server, spaceId: row.space_id, agentId: row.agent_id }),
      );
    },
    async assign(workspaceId, target, names) {
      const wanted = [...new Set(names)];
      const found = isUuid(workspaceId)
        ? await queryRecords<{ id: string; name: string }>(
            manager,
            'SELECT id, name FROM mcp_servers WHERE workspace_id = $1 AND name = ANY($2::text[])',
            [workspaceId, wanted],
          )
        : [];
      const idOf = new Map(found.map((row) => [row.name, row.id]));
      const missing = wanted.find((name) => !idOf.has(name));
      if (missing !== undefined)
        throw new NotFoundError(`No MCP server named "${missing}" in this workspace.`);
      const [column, id] = 'spaceId' in target ? ['space_id', target.spaceId] : ['agent_id', target.agentId];
      if (!isUuid(id))
        throw new NotFoundError(`No ${column === 'space_id' ? 'space' : 'agent'} with id ${id}.`);
      await queryRecords(
        manager,
        `DELETE FROM mcp_server_assignments WHERE workspace_id = $1 AND ${column} = $2`,
        [workspaceId, id],
      );
      if (wanted.length === 0) return;
      // A2: the composite foreign keys refuse a space or agent of another workspace.
      await queryRecords(
        manager,
        `INSERT INTO mcp_server_assignments (workspace_id, mcp_server_id, ${column}, position)
         SELECT $1, server.id, $2, server.position - 1
           FROM unnest($3::uuid[]) WITH ORDINALITY AS server (id, position)`,
        [workspaceId, id, wanted.map((name) => idOf.get(name))],
      );
    },
  };
};
