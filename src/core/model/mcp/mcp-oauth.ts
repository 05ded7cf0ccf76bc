/**
 * E5: whose OAuth tokens for a server: a member's own (`tokens: member`) or the workspace's
 * (`memberId: null`, `tokens: workspace`).
 */
export interface McpOAuthOwner {
  server: string;
  memberId: string | null;
}

/**
 * E5: stored tokens as the store holds them: sealed (AES-256-GCM, `SUMMON_SECRET_KEY`); only
 * the access token's expiry is in clear, so a refresh can be planned without opening them.
 */
export interface SealedMcpTokens {
  sealed: string;
  expiresAt: Date | null;
  updatedAt: Date;
}

/**
 * E5: an authorization link handed out and not yet completed: bound to its server and owner,
 * the PKCE verifier sealed, the state stored only as its hash; used once, before it expires.
 */
export interface McpOAuthPendingRecord {
  id: string;
  workspaceId: string;
  server: string;
  /** The server's URL when the link was made: the callback finishes against this one. */
  serverUrl: string;
  memberId: string | null;
  sealedVerifier: string;
  expiresAt: Date;
  usedAt: Date | null;
}

/** E5: how long an authorization link stays usable. */
export const MCP_OAUTH_LINK_TTL_MS = 15 * 60_000;
