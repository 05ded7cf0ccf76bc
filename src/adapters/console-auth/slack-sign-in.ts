import type { ConsoleSignInClient } from '../../config/console-config';
import {
  field,
  jwtClaims,
  type PlatformSignIn,
  platformJson,
  SIGN_IN_CALL_TIMEOUT_MS,
  type SignedInAccount,
  signInRefused,
} from './platform-sign-in';

const USER_CLAIM = 'https://slack.com/user_id';
const TEAM_CLAIM = 'https://slack.com/team_id';

/**
 * O5: "Sign in with Slack" (OpenID Connect). The authorization page is on the API host's
 * `/openid/connect/authorize`; the code is exchanged with `openid.connect.token` and the
 * person read with `openid.connect.userInfo`, both at `SLACK_API_URL` (the bot's base). The ID
 * token comes straight from Slack over TLS, so its claims are read, not re-verified: its
 * audience must be this client and its nonce this attempt's (a replayed token is refused).
 */
export class SlackSignIn implements PlatformSignIn {
  readonly platform = 'slack' as const;

  constructor(private readonly client: ConsoleSignInClient) {}

  authorizeUrl(attempt: { state: string; nonce: string; redirectUri: string }): string {
    const url = new URL('/openid/connect/authorize', this.apiBase());
    url.search = new URLSearchParams({
      response_type: 'code',
      scope: 'openid profile',
      client_id: this.client.clientId,
      state: attempt.state,
      nonce: attempt.nonce,
      redirect_uri: attempt.redirectUri,
    }).toString();
    return url.toString();
  }

  async complete(attempt: { code: string; nonce: string; redirectUri: string }): Promise<SignedInAccount> {
    const token = await this.call('openid.connect.token', {
      body: new URLSearchParams({
        client_id: this.client.clientId,
        client_secret: this.client.clientSecret,
        code: attempt.code,
        redirect_uri: attempt.redirectUri,
        grant_type: 'authorization_code',
      }),
    });
    const accessToken = field(token, 'access_token');
    const claims = jwtClaims(field(token, 'id_token') ?? '');
    if (accessToken === null || claims === null)
      throw signInRefused('Slack answered the sign-in without an access token and an ID token.');
    const audience = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
    if (!audience.includes(this.client.clientId))
      throw signInRefused('Slack’s ID token was made for another app.');
    if (claims.nonce !== attempt.nonce)
      throw signInRefused('Slack’s ID token belongs to another sign-in (its nonce does not match).');
    const info = await this.call('openid.connect.userInfo', { bearer: accessToken });
    const userId = field(info, USER_CLAIM);
    const teamId = field(info, TEAM_CLAIM);
    if (userId === null || teamId === null || field(info, 'sub') !== claims.sub)
      throw signInRefused('Slack did not say which user and team signed in.');
    return { platform: 'slack', userId, teamId, name: field(info, 'name') ?? userId };
  }

  private apiBase(): string {
    return this.client.apiUrl.endsWith('/') ? this.client.apiUrl : `${this.client.apiUrl}/`;
  }

  /** A Web API method; `{ ok: false, error }` is a refusal naming Slack's error code. */
  private async call(
    method: string,
    request: { body?: URLSearchParams; bearer?: string },
  ): Promise<Record<string, unknown>> {
    const response = await fetch(new URL(method, this.apiBase()), {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        ...(request.bearer === undefined ? {} : { authorization: `Bearer ${request.bearer}` }),
      },
      body: request.body ?? '',
      signal: AbortSignal.timeout(SIGN_IN_CALL_TIMEOUT_MS),
    });
    const body = await platformJson('Slack', response);
    if (body.ok !== true)
      throw signInRefused(
        `Slack refused the sign-in (${field(body, 'error') ?? `HTTP ${response.status}`}).`,
      );
    return body;
  }
}
