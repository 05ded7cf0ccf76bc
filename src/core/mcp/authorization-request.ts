import { MCP_OAUTH_LINK_TTL_MS, type McpOAuthOwner } from '../model/mcp/mcp-oauth';
import type { McpServerSpec } from '../model/mcp/mcp-server';
import type { MemberRole } from '../model/member';
import type { MemberRecord } from '../model/records';
import type { McpCallContext } from '../ports/mcp-clients';
import { needsOAuth } from './token-owner';

/** E5: the roles that may authorize a server for the whole workspace. */
const WORKSPACE_AUTHORIZERS: readonly MemberRole[] = ['owner', 'admin'];

/**
 * E5: what to do when a call finds no tokens: send one person a link in a private message
 * (`message(link)`), and tell the model who was asked; or, when nobody can be asked, only
 * tell the model why.
 */
export type AuthorizationRequest =
  | {
      kind: 'send';
      owner: McpOAuthOwner;
      /** Gets the link in a private message, never in a channel: it is theirs alone. */
      recipient: MemberRecord;
      /** What the call returns to the model instead of a result. */
      toModel: string;
      message(link: string): string;
    }
  | { kind: 'nobody'; toModel: string };

const minutes = Math.round(MCP_OAUTH_LINK_TTL_MS / 60_000);

/**
 * E5: who is asked to authorize `server`. Member tokens: the member the call was made for.
 * Workspace tokens: that member when they are an owner or admin, otherwise the workspace's
 * first owner or admin (`members` in creation order).
 */
export function authorizationRequest(input: {
  server: McpServerSpec;
  context: McpCallContext;
  members: readonly MemberRecord[];
}): AuthorizationRequest {
  const { server, context, members } = input;
  const name = server.name;
  if (!needsOAuth(server)) return { kind: 'nobody', toModel: `${name} does not use OAuth.` };
  const asking = members.find((m) => m.id === context.memberId) ?? null;
  if (server.auth.tokens === 'member') {
    if (asking === null) {
      return {
        kind: 'nobody',
        toModel: `${name} needs the authorization of the member a call is made for, and this call was made for no member.`,
      };
    }
    return {
      kind: 'send',
      owner: { server: name, memberId: asking.id },
      recipient: asking,
      toModel: `${name} needs authorization; @${asking.nickname} was sent a link.`,
      message: (link) =>
        `${name} needs your authorization before agents can use it for you. Open this link to authorize it (valid ${minutes} minutes): ${link}`,
    };
  }
  const recipient =
    asking !== null && WORKSPACE_AUTHORIZERS.includes(asking.role)
      ? asking
      : (members.find((m) => WORKSPACE_AUTHORIZERS.includes(m.role)) ?? null);
  if (recipient === null) {
    return {
      kind: 'nobody',
      toModel: `${name} needs authorization by an owner or admin of the workspace, and it has none: an operator can run \`summon mcp login ${name}\`.`,
    };
  }
  return {
    kind: 'send',
    owner: { server: name, memberId: null },
    recipient,
    toModel: `${name} needs authorization; @${recipient.nickname} was sent a link.`,
    message: (link) =>
      `${name} needs authorization for the whole workspace (every member's calls will use it). As an ${recipient.role}, open this link to authorize it (valid ${minutes} minutes): ${link}`,
  };
}
