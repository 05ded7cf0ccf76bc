import { randomBytes } from 'node:crypto';
import { auth, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import {
  OAuthClientInformationFullSchema,
  type OAuthClientInformationMixed,
  type OAuthClientMetadata,
  type OAuthTokens,
  OAuthTokensSchema,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import { MCP_OAUTH_LINK_TTL_MS, type McpOAuthOwner } from '../../core/model/mcp/mcp-oauth';
import type { Clock } from '../../core/ports/clock';
import type { Logger } from '../../core/ports/logger';
import type { Store, StoreTx } from '../../core/ports/store';
import { McpAuthorizationNeeded } from './authorization-needed';
import { digest, type SecretBox } from './secret-box';

/**
 * What the provider is for. `use`: a call's requests (tokens sent, refreshed; a new
 * authorization is not started but reported, E5). `link`: making an authorization link (stored
 * tokens ignored, the PKCE verifier kept with the state). `callback`: exchanging the code of
 * one pending link, whose verifier it is given.
 */
export type ProviderMode = { kind: 'use' } | { kind: 'link' } | { kind: 'callback'; verifier: string };

export interface StoredProviderDeps {
  store: Store;
  box: SecretBox;
  clock: Clock;
  logger: Logger;
  workspaceId: string;
  serverUrl: string;
  owner: McpOAuthOwner;
  redirectUrl: string;
  mode: ProviderMode;
}

/** E5: refresh ahead of expiry by a minute, or a quarter of a shorter lifetime. */
const refreshMarginMs = (lifetimeMs: number): number => Math.min(60_000, lifetimeMs / 4);

/**
 * E5: the SDK's `OAuthClientProvider` for one server and one owner (a member or the
 * workspace), backed by the store: the SDK runs discovery, dynamic client registration, PKCE,
 * the code exchange and refreshes; everything secret it hands over is sealed before it is
 * stored, and read back unchanged (the SDK's `issuer` stamp included).
 */
export class StoredOAuthProvider implements OAuthClientProvider {
  /** `link` mode: where the person is sent, once `auth()` has made it. */
  authorizationUrl: URL | undefined;
  private state_: string | undefined;
  /** The sealed tokens last read: an invalidation deletes only those (another process may have refreshed). */
  private lastSealed: string | undefined;
  private refreshing: Promise<void> | undefined;

  constructor(private readonly deps: StoredProviderDeps) {}

  get owner(): McpOAuthOwner {
    return this.deps.owner;
  }

  get redirectUrl(): string {
    return this.deps.redirectUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'Summon',
      redirect_uris: [this.deps.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
    };
  }

  state(): string {
    this.state_ = randomBytes(32).toString('base64url');
    return this.state_;
  }

  async clientInformation(): Promise<OAuthClientInformationMixed | undefined> {
    const sealed = await this.tx((tx) => tx.mcpOAuth.client(this.deps.workspaceId, this.deps.owner.server));
    if (sealed === null) return undefined;
    const parsed = OAuthClientInformationFullSchema.safeParse(this.open(sealed, this.clientContext()));
    return parsed.success ? parsed.data : undefined;
  }

  async saveClientInformation(information: OAuthClientInformationMixed): Promise<void> {
    const sealed = this.deps.box.seal(JSON.stringify(information), this.clientContext());
    await this.tx((tx) => tx.mcpOAuth.saveClient(this.deps.workspaceId, this.deps.owner.server, sealed));
  }

  async tokens(): Promise<OAuthTokens | undefined> {
    // E5: a link starts a new authorization whatever is stored.
    if (this.deps.mode.kind === 'link') return undefined;
    const stored = await this.storedTokens();
    if (stored === undefined || this.deps.mode.kind !== 'use' || this.refreshing !== undefined) {
      return stored?.tokens;
    }
    if (!this.expiring(stored.tokens, stored.expiresAt)) return stored.tokens;
    await this.refreshAhead();
    return (await this.storedTokens())?.tokens;
  }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
    const now = this.deps.clock.now().getTime();
    const expiresAt = tokens.expires_in === undefined ? null : new Date(now + tokens.expires_in * 1000);
    const sealed = this.deps.box.seal(JSON.stringify(tokens), this.tokensContext());
    await this.tx((tx) =>
      tx.mcpOAuth.saveTokens(this.deps.workspaceId, this.deps.owner, { sealed, expiresAt }),
    );
    this.lastSealed = sealed;
    this.deps.logger.info(
      { server: this.deps.owner.server, member: this.deps.owner.memberId, expiresAt },
      'E5: stored OAuth tokens',
    );
  }

  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    // E5: a call never starts an authorization on its own: a person is asked (authorizationRequest).
    if (this.deps.mode.kind !== 'link') throw new McpAuthorizationNeeded(this.deps.owner);
    this.authorizationUrl = authorizationUrl;
  }

  async saveCodeVerifier(codeVerifier: string): Promise<void> {
    if (this.deps.mode.kind !== 'link') return;
    const state = this.state_;
    if (state === undefined) throw new Error('the authorization has no state to bind its verifier to');
    const stateHash = digest(state);
    const sealedVerifier = this.deps.box.seal(codeVerifier, verifierContext(stateHash));
    const expiresAt = new Date(this.deps.clock.now().getTime() + MCP_OAUTH_LINK_TTL_MS);
    await this.tx((tx) =>
      tx.mcpOAuth.insertPending(this.deps.workspaceId, {
        server: this.deps.owner.server,
        serverUrl: this.deps.serverUrl,
        memberId: this.deps.owner.memberId,
        stateHash,
        sealedVerifier,
        expiresAt,
      }),
    );
  }

  codeVerifier(): string {
    if (this.deps.mode.kind !== 'callback') throw new Error('no authorization is being completed');
    return this.deps.mode.verifier;
  }

  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    const { workspaceId, owner } = this.deps;
    if (scope === 'all' || scope === 'client') {
      await this.tx((tx) => tx.mcpOAuth.deleteClient(workspaceId, owner.server));
    }
    if ((scope === 'all' || scope === 'tokens') && this.lastSealed !== undefined) {
      const sealed = this.lastSealed;
      await this.tx((tx) => tx.mcpOAuth.deleteTokens(workspaceId, owner, { ifSealed: sealed }));
      this.deps.logger.warn(
        { server: owner.server, member: owner.memberId },
        'E5: OAuth tokens refused; dropped',
      );
    }
  }

  /** The stored tokens, opened, with their expiry; undefined when there are none (or they do not open). */
  async storedTokens(): Promise<{ tokens: OAuthTokens; expiresAt: Date | null } | undefined> {
    const row = await this.tx((tx) => tx.mcpOAuth.tokens(this.deps.workspaceId, this.deps.owner));
    if (row === null) return undefined;
    this.lastSealed = row.sealed;
    const parsed = OAuthTokensSchema.safeParse(this.open(row.sealed, this.tokensContext()));
    return parsed.success ? { tokens: parsed.data, expiresAt: row.expiresAt } : undefined;
  }

  private expiring(tokens: OAuthTokens, expiresAt: Date | null): boolean {
    if (expiresAt === null || tokens.refresh_token === undefined || tokens.expires_in === undefined)
      return false;
    const left = expiresAt.getTime() - this.deps.clock.now().getTime();
    return left <= refreshMarginMs(tokens.expires_in * 1000);
  }

  /**
   * E5: refreshes before the access token expires (the SDK would wait for a 401). Concurrent
   * requests share one refresh; a refresh that fails leaves the 401 path to try again.
   */
  private refreshAhead(): Promise<void> {
    this.refreshing ??= auth(this, { serverUrl: this.deps.serverUrl })
      .then(() => undefined)
      .catch((error: unknown) => {
        this.deps.logger.warn(
          { server: this.deps.owner.server, member: this.deps.owner.memberId, reason: reasonOf(error) },
          'E5: refreshing OAuth tokens ahead of expiry failed',
        );
      })
      .finally(() => {
        this.refreshing = undefined;
      });
    return this.refreshing;
  }

  private open(sealed: string, context: string): unknown {
    try {
      return JSON.parse(this.deps.box.open(sealed, context));
    } catch (error) {
      this.deps.logger.warn(
        { server: this.deps.owner.server, reason: reasonOf(error) },
        'E5: a stored OAuth secret did not open',
      );
      return undefined;
    }
  }

  private tx<T>(work: (tx: StoreTx) => Promise<T>): Promise<T> {
    return this.deps.store.inWorkspace(this.deps.workspaceId, work);
  }

  private clientContext(): string {
    return `mcp-oauth-client:${this.deps.workspaceId}:${this.deps.owner.server}`;
  }

  private tokensContext(): string {
    const { workspaceId, owner } = this.deps;
    return `mcp-oauth-tokens:${workspaceId}:${owner.server}:${owner.memberId ?? 'workspace'}`;
  }
}

/** E5: a pending link's verifier opens only for its own state. */
export const verifierContext = (stateHash: string): string => `mcp-oauth-verifier:${stateHash}`;

const reasonOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));
