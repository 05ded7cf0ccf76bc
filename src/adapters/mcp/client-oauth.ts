import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { needsOAuth } from '../../core/mcp/token-owner';
import type { McpServerSpec } from '../../core/model/mcp/mcp-server';
import type { McpCallContext } from '../../core/ports/mcp-clients';
import { McpAuthorizationNeeded } from '../mcp-oauth/authorization-needed';
import { ServerStartError } from './server-transport';

/**
 * E5: what the pool needs for servers with `auth: oauth`: the transport's provider (the
 * owner's stored tokens; throws `McpAuthorizationNeeded` when there are none) and, when a
 * token is missing, the sentence for the model after the right person was asked privately.
 */
export interface McpClientOAuth {
  provider(context: McpCallContext, spec: McpServerSpec): Promise<OAuthClientProvider>;
  ask(context: McpCallContext, spec: McpServerSpec): Promise<string>;
}

/** E5: whether a failure (or what caused it, as the SDK wraps it) is a missing token. */
export function authorizationNeeded(error: unknown): boolean {
  for (let at = error, depth = 0; at instanceof Error && depth < 8; depth++) {
    if (at instanceof McpAuthorizationNeeded) return true;
    at = at.cause;
  }
  return false;
}

/**
 * E5: the transport's provider for a server with `auth: oauth` (the owner's stored tokens;
 * `McpAuthorizationNeeded` when none), undefined for any other server.
 */
export async function oauthProvider(
  oauth: McpClientOAuth | undefined,
  context: McpCallContext,
  spec: McpServerSpec,
): Promise<OAuthClientProvider | undefined> {
  if (!needsOAuth(spec)) return undefined;
  if (oauth === undefined)
    throw new ServerStartError('it needs OAuth, which this Summon process does not offer');
  return oauth.provider(context, spec);
}
