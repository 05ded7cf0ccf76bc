import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { needsOAuth } from '../../core/mcp/token-owner';
import type { McpServerSpec } from '../../core/model/mcp/mcp-server';
import type { McpCallContext, McpToolInfo } from '../../core/ports/mcp-clients';
import { McpAuthorizationNeeded } from '../mcp-oauth/authorization-needed';
import { ServerStartError } from './server-transport';
import { qualifiedToolName } from './tool-names';

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
  try {
    return await oauth.provider(context, spec);
  } catch (error) {
    if (authorizationNeeded(error) || !(error instanceof Error)) throw error;
    // No key, no public URL, a call made for no member: the sentence says which.
    throw new ServerStartError(error.message.replace(/\.$/, ''), { cause: error });
  }
}

/** E5: the one tool a server that needs authorization offers until it has it. */
export const AUTHORIZE_TOOL = 'authorize';

/**
 * E5: a server with no token for this turn's owner lists no tools; the model is offered
 * `<server>__authorize` instead, whose call asks the right person (a link, privately) and
 * says so: the link goes out when the server is wanted, not at every turn's start.
 */
export function authorizeTool(server: string): McpToolInfo {
  return {
    server,
    tool: AUTHORIZE_TOOL,
    qualifiedName: qualifiedToolName(server, AUTHORIZE_TOOL),
    description: `${server} needs authorization before its tools can be used. Call this to have the person whose access it uses sent a link privately; its tools come with a turn after they authorize.`,
    inputSchema: { type: 'object', properties: {} },
    readOnly: true,
  };
}

/**
 * E5: a call of `<server>__authorize` that found a token (the person authorized after the turn
 * listed its tools): the placeholder's, unless the server itself has a tool of that name.
 */
export async function isAuthorizeCall(
  spec: McpServerSpec,
  tool: string,
  listed: () => Promise<readonly { name: string }[]>,
): Promise<boolean> {
  if (!needsOAuth(spec) || tool !== AUTHORIZE_TOOL) return false;
  return !(await listed()).some((t) => t.name === AUTHORIZE_TOOL);
}

export const authorizedNow = (server: string): string =>
  `${server} is authorized now: its tools are offered from the next turn on.`;
