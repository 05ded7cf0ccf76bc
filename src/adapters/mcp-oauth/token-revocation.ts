import { discoverOAuthServerInfo } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';

/** E5: what asking the authorization server to revoke came to, as a sentence's end. */
export type RevocationOutcome =
  | { kind: 'revoked' }
  | { kind: 'unsupported' }
  | { kind: 'failed'; reason: string };

const TIMEOUT_MS = 10_000;

/**
 * E5: RFC 7009 at the server's authorization server, when its metadata names a revocation
 * endpoint: the refresh token (which ends the grant), then the access token. The client
 * authenticates as the endpoint says it may (`client_secret_basic` only when `post` is not
 * offered). Never throws: the tokens are already deleted here, whatever the server says.
 */
export async function revokeTokens(input: {
  serverUrl: string;
  tokens: OAuthTokens;
  client: OAuthClientInformationMixed | undefined;
}): Promise<RevocationOutcome> {
  try {
    const info = await discoverOAuthServerInfo(input.serverUrl);
    // RFC 8414's revocation fields (OpenID Connect's metadata has none).
    const metadata = (info.authorizationServerMetadata ?? {}) as {
      revocation_endpoint?: string;
      revocation_endpoint_auth_methods_supported?: string[];
    };
    const endpoint = metadata.revocation_endpoint;
    if (endpoint === undefined) return { kind: 'unsupported' };
    const methods = metadata.revocation_endpoint_auth_methods_supported ?? ['client_secret_basic'];
    const basic = !methods.includes('client_secret_post') && methods.includes('client_secret_basic');
    const order: [string, string | undefined][] = [
      ['refresh_token', input.tokens.refresh_token],
      ['access_token', input.tokens.access_token],
    ];
    for (const [hint, token] of order) {
      if (token === undefined) continue;
      const response = await post(endpoint, { token, token_type_hint: hint }, input.client, basic);
      if (!response.ok) {
        return { kind: 'failed', reason: `the revocation endpoint answered ${response.status}` };
      }
    }
    return { kind: 'revoked' };
  } catch (error) {
    return { kind: 'failed', reason: error instanceof Error ? error.message : String(error) };
  }
}

async function post(
  endpoint: string,
  fields: Record<string, string>,
  client: OAuthClientInformationMixed | undefined,
  basic: boolean,
): Promise<Response> {
  const body = new URLSearchParams(fields);
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
  if (client !== undefined) {
    if (basic && client.client_secret !== undefined) {
      const pair = `${encodeURIComponent(client.client_id)}:${encodeURIComponent(client.client_secret)}`;
      headers.authorization = `Basic ${Buffer.from(pair).toString('base64')}`;
    } else {
      body.set('client_id', client.client_id);
      if (client.client_secret !== undefined) body.set('client_secret', client.client_secret);
    }
  }
  const response = await fetch(endpoint, {
    method: 'POST',
    headers,
    body,
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  await response.body?.cancel();
  return response;
}
