import { ValidationError } from '../errors';
import type { McpOAuthOwner } from '../model/mcp/mcp-oauth';
import type { McpHttpServerSpec, McpServerSpec } from '../model/mcp/mcp-server';
import type { McpCallContext } from '../ports/mcp-clients';

/** E5: a server whose entry says `auth: oauth`. */
export const needsOAuth = (
  server: McpServerSpec,
): server is McpHttpServerSpec & { auth: { kind: 'oauth' } } =>
  server.transport === 'http' && server.auth?.kind === 'oauth';

/**
 * E5: whose tokens a call to `server` uses: the workspace's (`tokens: workspace`), or the
 * member's the call is made for (`tokens: member`: the call's `memberId` is required; a call
 * made for no member, such as an agent's own scheduled work, cannot use the server).
 */
export function tokenOwner(context: McpCallContext, server: McpServerSpec): McpOAuthOwner {
  if (!needsOAuth(server)) {
    throw new ValidationError(`${server.name} does not use OAuth (its entry has no \`auth: oauth\`).`);
  }
  if (server.auth.tokens === 'workspace') return { server: server.name, memberId: null };
  const memberId = context.memberId ?? null;
  if (memberId === null) {
    throw new ValidationError(
      `${server.name} uses each member's own authorization (\`tokens: member\`), and this call was made for no member.`,
    );
  }
  return { server: server.name, memberId };
}
