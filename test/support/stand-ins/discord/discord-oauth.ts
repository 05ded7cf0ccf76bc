import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** An application's OAuth2 client: its credentials and its registered redirect URL. */
export interface DiscordOAuthApp {
  clientId: string;
  clientSecret: string;
  redirectUri: string;
}

/** The Discord user logged in to the browser that reaches the authorization page. */
export interface DiscordBrowserUser {
  id: string;
  username: string;
  global_name?: string;
}

interface IssuedCode {
  user: DiscordBrowserUser;
  clientId: string;
  redirectUri: string;
  used: boolean;
}

/**
 * Discord's OAuth2 for "Sign in with Discord", validating as Discord does:
 * `/oauth2/authorize` needs `response_type=code`, a known `client_id`, a registered
 * `redirect_uri` and scopes it knows (`identify`); `POST /api/oauth2/token`
 * (`grant_type=authorization_code`, the client by HTTP Basic or form fields) takes a code once
 * and only with the same redirect URL (`invalid_grant` otherwise, HTTP 400); `GET
 * /api/users/@me` answers for that bearer token only (401 otherwise). Attach with `handle`, or
 * `start` a server of its own.
 */
export class DiscordOAuthStandIn {
  readonly apps: DiscordOAuthApp[] = [];
  browserUser: DiscordBrowserUser | null = null;
  readonly authorizations: URLSearchParams[] = [];
  private readonly codes = new Map<string, IssuedCode>();
  private readonly tokens = new Map<string, DiscordBrowserUser>();
  private server: Server | null = null;

  async start(): Promise<this> {
    const server = createServer((req, res) => {
      if (!this.handle(req, res)) {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ message: '404: Not Found', code: 0 }));
      }
    });
    this.server = server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return this;
  }

  /** DISCORD_API_URL for a stand-in started on its own. */
  get apiUrl(): string {
    if (this.server === null) throw new Error('start the stand-in first');
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/api`;
  }

  close(): Promise<void> {
    const server = this.server;
    if (server === null) return Promise.resolve();
    server.closeAllConnections();
    return new Promise((resolve) => server.close(() => resolve()));
  }

  handle(req: IncomingMessage, res: ServerResponse): boolean {
    const url = new URL(req.url ?? '/', 'http://discord.invalid');
    const path = url.pathname.replace(/^\/api(\/v\d+)?/, '/api');
    if (req.method === 'GET' && url.pathname === '/oauth2/authorize') {
      this.authorize(url.searchParams, res);
      return true;
    }
    if (req.method === 'POST' && path === '/api/oauth2/token') {
      void readForm(req).then((form) => {
        const [status, body] = this.token(form, String(req.headers.authorization ?? ''));
        send(res, status, body);
      });
      return true;
    }
    if (req.method === 'GET' && path === '/api/users/@me') {
      const user = this.tokens.get(String(req.headers.authorization ?? '').replace(/^Bearer /, ''));
      if (user === undefined) send(res, 401, { message: '401: Unauthorized', code: 0 });
      else send(res, 200, { ...user, discriminator: '0', avatar: null });
      return true;
    }
    return false;
  }

  private authorize(query: URLSearchParams, res: ServerResponse) {
    this.authorizations.push(query);
    const app = this.apps.find((a) => a.clientId === query.get('client_id'));
    const refuse = (why: string) => send(res, 400, { error: why });
    if (app === undefined) return refuse('Unknown application');
    if (query.get('redirect_uri') !== app.redirectUri) return refuse('Invalid OAuth2 redirect_uri');
    if (query.get('response_type') !== 'code') return refuse('unsupported_response_type');
    const scopes = (query.get('scope') ?? '').split(' ');
    if (!scopes.includes('identify') || scopes.some((s) => !['identify', 'email', 'guilds'].includes(s)))
      return refuse('Invalid scope');
    if (this.browserUser === null) return refuse('not logged in to Discord');
    const code = randomBytes(15).toString('hex');
    this.codes.set(code, {
      user: this.browserUser,
      clientId: app.clientId,
      redirectUri: app.redirectUri,
      used: false,
    });
    const back = new URL(app.redirectUri);
    back.searchParams.set('code', code);
    const state = query.get('state');
    if (state !== null) back.searchParams.set('state', state);
    res.writeHead(302, { location: back.toString() });
    res.end();
  }

  private token(form: URLSearchParams, authorization: string): [number, Record<string, unknown>] {
    const basic = /^Basic (.+)$/.exec(authorization)?.[1];
    const [id, secret] =
      basic === undefined
        ? [form.get('client_id'), form.get('client_secret')]
        : Buffer.from(basic, 'base64').toString('utf8').split(':');
    const app = this.apps.find((a) => a.clientId === id);
    if (app === undefined || secret !== app.clientSecret) return [401, { error: 'invalid_client' }];
    if (form.get('grant_type') !== 'authorization_code') return [400, { error: 'unsupported_grant_type' }];
    const issued = this.codes.get(form.get('code') ?? '');
    if (issued === undefined || issued.used || issued.clientId !== app.clientId)
      return [400, { error: 'invalid_grant', error_description: 'Invalid "code" in request.' }];
    issued.used = true;
    if (form.get('redirect_uri') !== issued.redirectUri)
      return [400, { error: 'invalid_grant', error_description: 'Invalid "redirect_uri" in request.' }];
    const token = randomBytes(15).toString('hex');
    this.tokens.set(token, issued.user);
    return [
      200,
      {
        access_token: token,
        token_type: 'Bearer',
        expires_in: 604800,
        refresh_token: randomBytes(15).toString('hex'),
        scope: 'identify',
      },
    ];
  }
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(new URLSearchParams(Buffer.concat(chunks).toString('utf8'))));
    req.on('error', reject);
  });
}
