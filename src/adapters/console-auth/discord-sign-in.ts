import type { ConsoleSignInClient } from '../../config/console-config';
import {
  field,
  type PlatformSignIn,
  platformJson,
  SIGN_IN_CALL_TIMEOUT_MS,
  type SignedInAccount,
  signInRefused,
} from './platform-sign-in';

/**
 * O5: "Sign in with Discord" (OAuth2, scope `identify`). The authorization page is on the API
 * host's `/oauth2/authorize`; the code is exchanged at `DISCORD_API_URL/oauth2/token` (the
 * client authenticated with HTTP Basic) and the person read from `/users/@me`. Discord takes
 * no nonce: the state alone ties the return to this attempt.
 */
export class DiscordSignIn implements PlatformSignIn {
  readonly platform = 'discord' as const;

  constructor(private readonly client: ConsoleSignInClient) {}

  authorizeUrl(attempt: { state: string; nonce: string; redirectUri: string }): string {
    const url = new URL('/oauth2/authorize', this.client.apiUrl);
    url.search = new URLSearchParams({
      response_type: 'code',
      client_id: this.client.clientId,
      scope: 'identify',
      state: attempt.state,
      redirect_uri: attempt.redirectUri,
      prompt: 'none',
    }).toString();
    return url.toString();
  }

  async complete(attempt: { code: string; nonce: string; redirectUri: string }): Promise<SignedInAccount> {
    const basic = Buffer.from(`${this.client.clientId}:${this.client.clientSecret}`).toString('base64');
    const tokenResponse = await fetch(this.endpoint('oauth2/token'), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${basic}` },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: attempt.code,
        redirect_uri: attempt.redirectUri,
      }),
      signal: AbortSignal.timeout(SIGN_IN_CALL_TIMEOUT_MS),
    });
    const token = await platformJson('Discord', tokenResponse);
    const accessToken = field(token, 'access_token');
    if (!tokenResponse.ok || accessToken === null)
      throw signInRefused(
        `Discord refused the sign-in (${field(token, 'error') ?? `HTTP ${tokenResponse.status}`}).`,
      );
    const meResponse = await fetch(this.endpoint('users/@me'), {
      headers: { authorization: `Bearer ${accessToken}` },
      signal: AbortSignal.timeout(SIGN_IN_CALL_TIMEOUT_MS),
    });
    const me = await platformJson('Discord', meResponse);
    const userId = field(me, 'id');
    if (!meResponse.ok || userId === null) throw signInRefused('Discord did not say who signed in.');
    return { platform: 'discord', userId, name: field(me, 'global_name') ?? field(me, 'username') ?? userId };
  }

  private endpoint(path: string): URL {
    const base = this.client.apiUrl.endsWith('/') ? this.client.apiUrl : `${this.client.apiUrl}/`;
    return new URL(path, base);
  }
}
