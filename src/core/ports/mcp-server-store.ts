import type { McpServerRecord, McpServerSpec } from '../model/mcp/mcp-server';

/** E1: the workspace's declared MCP servers and who gets which (in a workspace transaction). */
export interface McpServerRepository {
  list(): Promise<McpServerRecord[]>;
  /** E1: the union of the space's and the agent's servers, by name, each once. */
  forTurn(agentId: string, spaceId: string | null): Promise<McpServerSpec[]>;
}
