import { createHash, randomUUID } from 'node:crypto';
import type { OAuthRegisteredClientsStore } from '@modelcontextprotocol/sdk/server/auth/clients.js';
import { InvalidGrantError, InvalidTokenError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type {
  AuthorizationParams,
  OAuthServerProvider,
} from '@modelcontextprotocol/sdk/server/auth/provider.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import type {
  OAuthClientInformationFull,
  OAuthTokenRevocationRequest,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import type { Response } from 'express';

interface Grant {
  clientId: string;
  /** Who authorized: each grant a person of its own, so tests can tell tokens apart. */
  subject: string;
  resource: string | undefined;
}

/**
 * E5: an authorization server's side, after the SDK's demo provider
 * (`examples/server/demoInMemoryOAuthProvider.js`): auto-approving, in memory, with what the
 * demo lacks: refresh tokens (rotated), revocation, a settable access-token lifetime and
 * expiring every access token at once. It checks PKCE itself, so it sees each code verifier
 * (the tests look for it in the database). Everything it issued is recorded.
 */
export class TestOAuthProvider implements OAuthServerProvider {
  readonly skipLocalPkceValidation = true;
  readonly clients = new Map<string, OAuthClientInformationFull>();
  /** Every secret it handed out or was handed: none may reach Summon's logs or database in clear. */
  readonly secrets: string[] = [];
  readonly revoked: string[] = [];
  refreshes = 0;
  accessLifetimeSeconds = 3600;
  private subjects = 0;
  private readonly codes = new Map<string, { grant: Grant; challenge: string; redirectUri: string }>();
  private readonly access = new Map<string, Grant & { expiresAt: number }>();
  private readonly refresh = new Map<string, Grant>();

  get clientsStore(): OAuthRegisteredClientsStore {
    return {
      getClient: async (id) => this.clients.get(id),
      registerClient: async (client) => {
        const full = client as OAuthClientInformationFull;
        this.clients.set(full.client_id, full);
        if (full.client_secret !== undefined) this.secrets.push(full.client_secret);
        return full;
      },
    };
  }

  async authorize(
    client: OAuthClientInformationFull,
    params: AuthorizationParams,
    res: Response,
  ): Promise<void> {
    const code = randomUUID();
    this.subjects += 1;
    this.codes.set(code, {
      grant: {
        clientId: client.client_id,
        subject: `person-${this.subjects}`,
        resource: params.resource?.href,
      },
      challenge: params.codeChallenge,
      redirectUri: params.redirectUri,
    });
    this.secrets.push(code);
    const target = new URL(params.redirectUri);
    target.searchParams.set('code', code);
    if (params.state !== undefined) target.searchParams.set('state', params.state);
    res.redirect(target.toString());
  }

  async challengeForAuthorizationCode(_client: OAuthClientInformationFull, code: string): Promise<string> {
    const found = this.codes.get(code);
    if (found === undefined) throw new InvalidGrantError('unknown code');
    return found.challenge;
  }

  async exchangeAuthorizationCode(
    client: OAuthClientInformationFull,
    code: string,
    verifier?: string,
  ): Promise<OAuthTokens> {
    const found = this.codes.get(code);
    this.codes.delete(code);
    if (found === undefined || found.grant.clientId !== client.client_id)
      throw new InvalidGrantError('unknown code');
    if (verifier === undefined) throw new InvalidGrantError('no code verifier');
    this.secrets.push(verifier);
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    if (challenge !== found.challenge) throw new InvalidGrantError('the code verifier does not match');
    return this.issue(found.grant);
  }

  async exchangeRefreshToken(client: OAuthClientInformationFull, token: string): Promise<OAuthTokens> {
    const grant = this.refresh.get(token);
    if (grant === undefined || grant.clientId !== client.client_id)
      throw new InvalidGrantError('unknown refresh token');
    this.refresh.delete(token);
    this.refreshes += 1;
    return this.issue(grant);
  }

  async verifyAccessToken(token: string): Promise<AuthInfo> {
    const found = this.access.get(token);
    if (found === undefined || found.expiresAt <= Date.now())
      throw new InvalidTokenError('invalid or expired token');
    return {
      token,
      clientId: found.clientId,
      scopes: [],
      expiresAt: Math.floor(found.expiresAt / 1000),
      ...(found.resource === undefined ? {} : { resource: new URL(found.resource) }),
      extra: { subject: found.subject },
    };
  }

  async revokeToken(
    _client: OAuthClientInformationFull,
    request: OAuthTokenRevocationRequest,
  ): Promise<void> {
    this.revoked.push(request.token);
    this.access.delete(request.token);
    this.refresh.delete(request.token);
  }

  /** Every access token issued so far expires now (refresh tokens stay good). */
  expireAccessTokens(): void {
    for (const token of this.access.values()) token.expiresAt = 0;
  }

  private issue(grant: Grant): OAuthTokens {
    const accessToken = `at-${randomUUID()}`;
    const refreshToken = `rt-${randomUUID()}`;
    this.access.set(accessToken, { ...grant, expiresAt: Date.now() + this.accessLifetimeSeconds * 1000 });
    this.refresh.set(refreshToken, grant);
    this.secrets.push(accessToken, refreshToken);
    return {
      access_token: accessToken,
      token_type: 'bearer',
      expires_in: this.accessLifetimeSeconds,
      refresh_token: refreshToken,
    };
  }
}
