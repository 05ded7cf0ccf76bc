import { createHmac, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

/** An app registered for "Sign in with Slack": its credentials and its one redirect URL. */
export interface SlackOidcApp {
  clientId: string;
  clientSecret: string;
  redirectUri: string;
}

/** Who is signed in to Slack in the browser that reaches the authorization page. */
export interface SlackBrowserUser {
  userId: string;
  teamId: string;
  name: string;
}

interface IssuedCode {
  user: SlackBrowserUser;
  clientId: string;
  redirectUri: string;
  nonce: string | null;
  used: boolean;
}

/**
 * Slack's "Sign in with Slack" (OpenID Connect) on the Web API stand-in's host, validating as
 * Slack does: `/openid/connect/authorize` needs `response_type=code`, the `openid` scope, a
 * known `client_id` and exactly the app's redirect URL, then sends the browser back with a code
 * and the state unchanged; `openid.connect.token` takes a code once, only with its client's
 * secret and the same redirect URL, and answers an access token and an ID token carrying the
 * nonce; `openid.connect.userInfo` answers for that access token only.
 */
export class SlackOidcStandIn {
  readonly apps: SlackOidcApp[] = [];
  /** The person signed in to Slack in the browser (null: the authorization page refuses). */
  browserUser: SlackBrowserUser | null = null;
  /** What each authorization request asked, for tests to check (state and nonce present). */
  readonly authorizations: URLSearchParams[] = [];
  readonly tokenCalls: { ok: boolean; error?: string }[] = [];
  private readonly codes = new Map<string, IssuedCode>();
  private readonly accessTokens = new Map<string, SlackBrowserUser>();
  private readonly signingKey = randomBytes(32);

  /** Handles the OpenID Connect routes; false for any other request. */
  handle(req: IncomingMessage, res: ServerResponse): boolean {
    const url = new URL(req.url ?? '/', 'http://slack.invalid');
    if (req.method === 'GET' && url.pathname === '/openid/connect/authorize') {
      this.authorize(url.searchParams, res);
      return true;
    }
    if (url.pathname === '/api/openid.connect.token' || url.pathname === '/api/openid.connect.userInfo') {
      void readForm(req).then((form) => {
        const answer =
          url.pathname === '/api/openid.connect.token'
            ? this.token(form)
            : this.userInfo(String(req.headers.authorization ?? ''));
        res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
        res.end(JSON.stringify(answer));
      });
      return true;
    }
    return false;
  }

  private authorize(query: URLSearchParams, res: ServerResponse) {
    this.authorizations.push(query);
    const app = this.apps.find((a) => a.clientId === query.get('client_id'));
    const refuse = (why: string) => {
      res.writeHead(400, { 'content-type': 'text/plain' });
      res.end(why);
    };
    if (app === undefined) return refuse('invalid_client_id');
    if (query.get('redirect_uri') !== app.redirectUri) return refuse('bad_redirect_uri');
    if (query.get('response_type') !== 'code') return refuse('unsupported_response_type');
    if (!(query.get('scope') ?? '').split(' ').includes('openid')) return refuse('invalid_scope');
    if (this.browserUser === null) return refuse('not signed in to Slack');
    const code = `code-${randomBytes(12).toString('hex')}`;
    this.codes.set(code, {
      user: this.browserUser,
      clientId: app.clientId,
      redirectUri: app.redirectUri,
      nonce: query.get('nonce'),
      used: false,
    });
    const back = new URL(app.redirectUri);
    back.searchParams.set('code', code);
    const state = query.get('state');
    if (state !== null) back.searchParams.set('state', state);
    res.writeHead(302, { location: back.toString() });
    res.end();
  }

  private token(form: URLSearchParams): Record<string, unknown> {
    const answer = this.exchange(form);
    this.tokenCalls.push(answer.ok === true ? { ok: true } : { ok: false, error: String(answer.error) });
    return answer;
  }

  private exchange(form: URLSearchParams): Record<string, unknown> {
    const app = this.apps.find((a) => a.clientId === form.get('client_id'));
    if (app === undefined) return { ok: false, error: 'invalid_client_id' };
    if (form.get('client_secret') !== app.clientSecret) return { ok: false, error: 'bad_client_secret' };
    const issued = this.codes.get(form.get('code') ?? '');
    if (issued === undefined || issued.clientId !== app.clientId) return { ok: false, error: 'invalid_code' };
    if (issued.used) return { ok: false, error: 'invalid_code' };
    issued.used = true;
    if (form.get('redirect_uri') !== issued.redirectUri) return { ok: false, error: 'bad_redirect_uri' };
    const accessToken = `xoxp-oidc-${randomBytes(12).toString('hex')}`;
    this.accessTokens.set(accessToken, issued.user);
    const now = Math.floor(Date.now() / 1000);
    const claims = {
      iss: 'https://slack.com',
      sub: issued.user.userId,
      aud: app.clientId,
      exp: now + 3600,
      iat: now,
      auth_time: now,
      ...(issued.nonce === null ? {} : { nonce: issued.nonce }),
      'https://slack.com/user_id': issued.user.userId,
      'https://slack.com/team_id': issued.user.teamId,
      name: issued.user.name,
    };
    return { ok: true, access_token: accessToken, token_type: 'Bearer', id_token: this.jwt(claims) };
  }

  private userInfo(authorization: string): Record<string, unknown> {
    if (authorization === '') return { ok: false, error: 'not_authed' };
    const user = this.accessTokens.get(authorization.replace(/^Bearer /, ''));
    if (user === undefined) return { ok: false, error: 'invalid_auth' };
    return {
      ok: true,
      sub: user.userId,
      'https://slack.com/user_id': user.userId,
      'https://slack.com/team_id': user.teamId,
      name: user.name,
    };
  }

  private jwt(claims: Record<string, unknown>): string {
    const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const body = `${part({ alg: 'HS256', typ: 'JWT' })}.${part(claims)}`;
    return `${body}.${createHmac('sha256', this.signingKey).update(body).digest('base64url')}`;
  }
}

function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(new URLSearchParams(Buffer.concat(chunks).toString('utf8'))));
    req.on('error', reject);
  });
}
