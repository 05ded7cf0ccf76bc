import type { McpServerRecord, McpServerSpec } from '../model/mcp/mcp-server';

/** E1: a server given to a space or to an agent (exactly one of the two ids). */
export interface McpServerAssignment {
  server: string;
  spaceId: string | null;
  agentId: string | null;
}

/** E1: who is given a server: one space or one agent. */
export type McpServerTarget = { spaceId: string } | { agentId: string };

/** E1: the workspace's declared MCP servers and who gets which (in a workspace transaction). */
export interface McpServerRepository {
  list(): Promise<McpServerRecord[]>;
  /** E1: the union of the space's and the agent's servers, by name, each once. */
  forTurn(agentId: string, spaceId: string | null): Promise<McpServerSpec[]>;
  /** E1: one workspace's servers by name, in a system transaction too (apply, export, the CLI). */
  listForWorkspace(workspaceId: string): Promise<McpServerRecord[]>;
  /** E1: creates the server of that name, or replaces its spec (its assignments are kept). */
  save(workspaceId: string, spec: McpServerSpec): Promise<McpServerRecord>;
  /** E1: removes the server of that name, and with it its assignments. */
  remove(workspaceId: string, name: string): Promise<void>;
  /** E1: every assignment of the workspace, each target's in the order they were set. */
  assignments(workspaceId: string): Promise<McpServerAssignment[]>;
  /**
   * E1: replaces the target's servers by these names, in this order; a name the workspace does
   * not declare is a NotFoundError and nothing changes.
   */
  assign(workspaceId: string, target: McpServerTarget, names: readonly string[]): Promise<void>;
}
