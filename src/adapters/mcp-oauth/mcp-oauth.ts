import { auth } from '@modelcontextprotocol/sdk/client/auth.js';
import { ValidationError } from '../../core/errors';
import { tokenOwner } from '../../core/mcp/token-owner';
import type { McpOAuthOwner, McpOAuthPendingRecord } from '../../core/model/mcp/mcp-oauth';
import type { McpServerSpec } from '../../core/model/mcp/mcp-server';
import type { Clock } from '../../core/ports/clock';
import type { Logger } from '../../core/ports/logger';
import type { McpCallContext } from '../../core/ports/mcp-clients';
import type { Store } from '../../core/ports/store';
import { McpAuthorizationNeeded } from './authorization-needed';
import { callbackUrl, type McpOAuthSettings, noPublicUrl, noSecretKey } from './oauth-settings';
import { digest, SecretBox } from './secret-box';
import { type ProviderMode, StoredOAuthProvider, verifierContext } from './stored-oauth-provider';
import { type RevocationOutcome, revokeTokens } from './token-revocation';

export interface McpOAuthDeps {
  store: Store;
  clock: Clock;
  logger: Logger;
  settings: McpOAuthSettings;
}

/** E5: who an authorization completed at the callback was for. */
export interface CompletedAuthorization {
  workspaceId: string;
  server: string;
  memberId: string | null;
}

/**
 * E5: OAuth for remote MCP servers, for one Summon: the provider a call's transport uses, the
 * link a person opens, the callback's code exchange, and logout. Server specs come with their
 * `${env:…}` values expanded (as the client connects with them).
 */
export class McpOAuth {
  constructor(private readonly deps: McpOAuthDeps) {}

  /**
   * E5: the `authProvider` for a call's `StreamableHTTPClientTransport`: the owner's stored
   * tokens, refreshed ahead of expiry and on a 401. Throws `McpAuthorizationNeeded` when there
   * are none (the caller asks a person: `authorizationRequest`), a sentence when the settings
   * or the call cannot have tokens.
   */
  async provider(context: McpCallContext, server: McpServerSpec): Promise<StoredOAuthProvider> {
    const provider = this.make(context.workspaceId, server, tokenOwner(context, server), { kind: 'use' });
    if ((await provider.storedTokens()) === undefined) throw new McpAuthorizationNeeded(provider.owner);
    return provider;
  }

  /** E5: whether the owner of this call's tokens has any stored. */
  async authorized(context: McpCallContext, server: McpServerSpec): Promise<boolean> {
    const owner = tokenOwner(context, server);
    const row = await this.deps.store.inWorkspace(context.workspaceId, (tx) =>
      tx.mcpOAuth.tokens(context.workspaceId, owner),
    );
    return row !== null;
  }

  /**
   * E5: the URL a person opens to authorize `server` for the call's owner (registering Summon
   * with the authorization server first when it offers dynamic registration). Its state is
   * bound to that owner, single use, valid 15 minutes.
   */
  async authorizationLink(context: McpCallContext, server: McpServerSpec): Promise<string> {
    const owner = tokenOwner(context, server);
    const provider = this.make(context.workspaceId, server, owner, { kind: 'link' });
    let result: string;
    try {
      result = await auth(provider, { serverUrl: url(server) });
    } catch (error) {
      throw new Error(
        `${server.name}'s authorization server could not be asked for a link (${reasonOf(error)}).`,
        {
          cause: error,
        },
      );
    }
    if (result !== 'REDIRECT' || provider.authorizationUrl === undefined) {
      throw new Error(`${server.name}'s authorization server gave no authorization URL.`);
    }
    this.deps.logger.info(
      { workspaceId: context.workspaceId, server: owner.server, member: owner.memberId },
      'E5: authorization link made',
    );
    return provider.authorizationUrl.toString();
  }

  /**
   * E5: the callback: the pending link its state names (unknown, used or expired: a sentence),
   * used up, then the code exchanged for tokens that are stored for the link's owner.
   */
  async complete(query: URLSearchParams): Promise<CompletedAuthorization> {
    const state = query.get('state');
    if (state === null || state === '')
      throw new ValidationError('This address has no state: open the authorization link Summon sent you.');
    const pending = await this.deps.store.transaction((tx) => tx.mcpOAuth.findPending(digest(state)));
    if (pending === null)
      throw new ValidationError('This authorization is not one Summon started: ask for a new link.');
    await this.use(pending);
    const refused = query.get('error');
    if (refused !== null) {
      const why = query.get('error_description') ?? refused;
      throw new ValidationError(
        `${pending.server}'s authorization server did not authorize Summon (${why}).`,
      );
    }
    const code = query.get('code');
    if (code === null || code === '')
      throw new ValidationError('The authorization server sent no code back: ask for a new link.');
    const box = this.box(pending.server);
    const verifier = box.open(pending.sealedVerifier, verifierContext(digest(state)));
    const owner = { server: pending.server, memberId: pending.memberId };
    const spec = { name: pending.server, url: pending.serverUrl };
    const provider = this.make(pending.workspaceId, spec, owner, { kind: 'callback', verifier });
    try {
      await auth(provider, { serverUrl: pending.serverUrl, authorizationCode: code });
    } catch (error) {
      throw new ValidationError(
        `${pending.server}'s authorization server would not exchange the code (${reasonOf(error)}): ask for a new link.`,
        [],
        { cause: error },
      );
    }
    this.deps.logger.info(
      { workspaceId: pending.workspaceId, server: owner.server, member: owner.memberId },
      'E5: authorized',
    );
    return { workspaceId: pending.workspaceId, server: pending.server, memberId: pending.memberId };
  }

  /**
   * E5: deletes the owner's tokens, then asks the authorization server to revoke them when it
   * offers revocation. The client registration stays (other owners share it).
   */
  async logout(
    context: McpCallContext,
    server: McpServerSpec,
  ): Promise<{ deleted: boolean; revocation: RevocationOutcome }> {
    const owner = tokenOwner(context, server);
    const provider = this.make(context.workspaceId, server, owner, { kind: 'use' });
    const stored = await provider.storedTokens();
    const client = await provider.clientInformation();
    const deleted = await this.deps.store.inWorkspace(context.workspaceId, (tx) =>
      tx.mcpOAuth.deleteTokens(context.workspaceId, owner),
    );
    const revocation: RevocationOutcome =
      stored === undefined
        ? { kind: 'unsupported' }
        : await revokeTokens({ serverUrl: url(server), tokens: stored.tokens, client });
    this.deps.logger.info(
      {
        workspaceId: context.workspaceId,
        server: owner.server,
        member: owner.memberId,
        deleted,
        revocation: revocation.kind,
      },
      'E5: OAuth tokens deleted',
    );
    return { deleted, revocation };
  }

  /** E5: a pending link is used once, before it expires; the sentence says what to do instead. */
  private async use(pending: McpOAuthPendingRecord): Promise<void> {
    if (pending.usedAt !== null)
      throw new ValidationError('This authorization link was already used: ask for a new one.');
    if (pending.expiresAt.getTime() <= this.deps.clock.now().getTime()) {
      throw new ValidationError(
        'This authorization link expired (links last 15 minutes): ask for a new one.',
      );
    }
    const first = await this.deps.store.inWorkspace(pending.workspaceId, (tx) =>
      tx.mcpOAuth.usePending(pending.id, this.deps.clock.now()),
    );
    if (!first) throw new ValidationError('This authorization link was already used: ask for a new one.');
  }

  private make(
    workspaceId: string,
    server: Pick<McpServerSpec, 'name'> & { url?: string },
    owner: McpOAuthOwner,
    mode: ProviderMode,
  ): StoredOAuthProvider {
    const box = this.box(server.name);
    const publicUrl = this.deps.settings.publicUrl;
    if (publicUrl === undefined) throw new ValidationError(noPublicUrl(server.name));
    return new StoredOAuthProvider({
      store: this.deps.store,
      box,
      clock: this.deps.clock,
      logger: this.deps.logger,
      workspaceId,
      serverUrl: url(server),
      owner,
      redirectUrl: callbackUrl(publicUrl),
      mode,
    });
  }

  private box(server: string): SecretBox {
    const key = this.deps.settings.secretKey;
    if (key === undefined) throw new ValidationError(noSecretKey(server));
    return new SecretBox(key);
  }
}

const url = (server: Pick<McpServerSpec, 'name'> & { url?: string }): string => {
  if (server.url === undefined)
    throw new ValidationError(`${server.name} is not a remote (HTTP) server: OAuth is for those.`);
  return server.url;
};

const reasonOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));
