import type { McpOAuthOwner, McpOAuthPendingRecord, SealedMcpTokens } from '../model/mcp/mcp-oauth';

/**
 * E5: what Summon keeps of remote MCP servers' OAuth: the client registration per server, the
 * tokens per owner (a member or the workspace) and pending authorizations. Every secret arrives
 * here sealed; the store never sees one in clear. Workspace rows under RLS (A2).
 */
export interface McpOAuthRepository {
  tokens(workspaceId: string, owner: McpOAuthOwner): Promise<SealedMcpTokens | null>;
  /** Replaces the owner's tokens (a first authorization or a refresh). */
  saveTokens(
    workspaceId: string,
    owner: McpOAuthOwner,
    tokens: { sealed: string; expiresAt: Date | null },
  ): Promise<void>;
  /**
   * True when there were tokens to delete. `ifSealed`: only when they are still these (tokens
   * refused by the server are dropped, not the ones another process refreshed meanwhile).
   */
  deleteTokens(workspaceId: string, owner: McpOAuthOwner, options?: { ifSealed?: string }): Promise<boolean>;
  /** The sealed client registration (dynamic client registration's answer) for the server. */
  client(workspaceId: string, server: string): Promise<string | null>;
  saveClient(workspaceId: string, server: string, sealed: string): Promise<void>;
  deleteClient(workspaceId: string, server: string): Promise<void>;
  insertPending(
    workspaceId: string,
    fields: Omit<McpOAuthPendingRecord, 'id' | 'workspaceId' | 'usedAt'> & { stateHash: string },
  ): Promise<void>;
  /** E5: whether an unused link for this owner was made after `since` (one is not sent twice in a row). */
  hasRecentPending(workspaceId: string, owner: McpOAuthOwner, since: Date): Promise<boolean>;
  /** The pending authorization with this state hash, in any workspace (use it in the system context). */
  findPending(stateHash: string): Promise<McpOAuthPendingRecord | null>;
  /** Compare-and-set: true only for the one use that found it unused. */
  usePending(id: string, at: Date): Promise<boolean>;
}
