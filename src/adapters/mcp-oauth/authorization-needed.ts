import type { McpOAuthOwner } from '../../core/model/mcp/mcp-oauth';

/**
 * E5: a call to a server that needs OAuth found no usable tokens for its owner (none stored,
 * or the refresh was refused). Whoever catches it asks the right person to authorize
 * (`authorizationRequest` in src/core/mcp) and tells the model so, instead of failing the turn.
 */
export class McpAuthorizationNeeded extends Error {
  constructor(readonly owner: McpOAuthOwner) {
    super(`${owner.server} needs authorization`);
    this.name = 'McpAuthorizationNeeded';
  }
}
