import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { PushGate } from '../../core/git/push-gate';
import type { GitGatewayDeps, PushedListener } from './gateway-deps';
import { handlePush } from './push-handler';
import { readPushCommands } from './request-body';
import { basicPassword } from './run-credentials';
import { type GitAccess, sendUpstream, upstreamHeaders } from './upstream';

/** `/git/<owner>/<repo>.git/<smart-HTTP path>` */
const ROUTE =
  /^\/git\/([A-Za-z0-9_.-]+)\/([A-Za-z0-9_.-]+?)(?:\.git)?\/(info\/refs|git-upload-pack|git-receive-pack)$/;

interface Route {
  repo: string;
  endpoint: 'info/refs' | 'git-upload-pack' | 'git-receive-pack';
  service: string | null;
  upstreamPath: string;
}

export function parseGitRoute(url: string): Route | null {
  const parsed = new URL(url, 'http://gateway');
  const match = ROUTE.exec(parsed.pathname);
  if (match === null) return null;
  const [, owner, name, endpoint] = match;
  if (owner === undefined || name === undefined || endpoint === undefined) return null;
  if (owner.startsWith('.') || name.startsWith('.')) return null;
  const repo = `${owner}/${name}`;
  return {
    repo,
    endpoint: endpoint as Route['endpoint'],
    service: parsed.searchParams.get('service'),
    upstreamPath: `${repo}.git/${endpoint}${parsed.search}`,
  };
}

/**
 * G3: the git smart-HTTP gateway on Summon's HTTP server. A run reaches it with its per-run
 * credential; the gateway reaches GitHub with a credential only it holds. Clones and fetches
 * stream through; pushes are decided at the moment of the push by the core's `PushGate`, on the wire in
 * `push-handler.ts`.
 */
export class GitGateway {
  /** G2, G4, G5: the core decides each push; this gateway keeps the wire protocol. */
  private readonly pushes: PushGate;
  private pushed: PushedListener | undefined;

  constructor(private readonly deps: GitGatewayDeps) {
    this.pushed = deps.pushed;
    this.pushes = new PushGate({
      store: deps.store,
      approvals: deps.approvals,
      clock: deps.clock,
      logger: deps.logger,
      ...(deps.metrics === undefined ? {} : { metrics: deps.metrics }),
      ...(deps.processSlots === undefined ? {} : { processSlots: deps.processSlots }),
      ...(deps.timings.approvalTtlMs === undefined ? {} : { approvalTtlMs: deps.timings.approvalTtlMs }),
    });
  }

  /**
   * P21, P22: who is told of accepted pushes, once it exists (the chat front ends start after
   * the gateway); replaces `deps.pushed`.
   */
  onPushed(listener: PushedListener): void {
    this.pushed = listener;
  }

  /** Serves `/git/…`; returns false for any other path. */
  handle(req: IncomingMessage, res: ServerResponse): boolean {
    if (!(req.url ?? '').startsWith('/git/')) return false;
    this.serve(req, res).catch((error: unknown) => {
      this.deps.logger.error(
        { err: error, path: new URL(req.url ?? '/', 'http://g').pathname },
        'git gateway failed',
      );
      if (!res.headersSent) {
        res.writeHead(500, { 'content-type': 'text/plain' });
        res.end('git gateway error\n');
      } else res.destroy();
    });
    return true;
  }

  private async serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const route = parseGitRoute(req.url ?? '/');
    if (route === null) return plain(res, 404, 'not a git repository path');
    const service = route.endpoint === 'info/refs' ? route.service : route.endpoint;
    if (service !== 'git-upload-pack' && service !== 'git-receive-pack') {
      return plain(res, 403, 'only the smart HTTP protocol is served');
    }
    const expected = route.endpoint === 'info/refs' ? 'GET' : 'POST';
    if (req.method !== expected) return plain(res, 405, `${route.endpoint} takes ${expected}`);

    const presented = basicPassword(req.headers.authorization);
    const check = await this.deps.credentials.check(presented, route.repo);
    if (!check.ok) {
      // A git client asks without credentials first and sends them after the 401 challenge:
      // routine, so debug; a credential that was sent and refused is worth a warning.
      if (presented === null) {
        this.deps.logger.debug({ repo: route.repo }, 'git gateway challenged a client for its credential');
      } else {
        this.deps.logger.warn({ repo: route.repo, reason: check.reason }, 'git gateway refused a credential');
      }
      if (check.status === 401) {
        res.writeHead(401, {
          'www-authenticate': 'Basic realm="Summon git gateway"',
          'content-type': 'text/plain',
        });
        res.end(`${check.reason}\n`);
        return;
      }
      return plain(res, 403, check.reason);
    }
    const access: GitAccess = service === 'git-receive-pack' ? 'write' : 'read';
    if (route.endpoint !== 'git-receive-pack') return this.proxy(req, res, route, access);

    const gzip = /gzip/i.test(String(req.headers['content-encoding'] ?? ''));
    const source: Readable = gzip ? req.pipe(createGunzip()) : req;
    const read = await readPushCommands(source);
    if (!read.ok) return plain(res, 400, `bad push: ${read.reason}`);
    const deps = this.pushed === undefined ? this.deps : { ...this.deps, pushed: this.pushed };
    await handlePush(deps, this.pushes, {
      req,
      res,
      run: check.run,
      repo: route.repo,
      upstreamPath: route.upstreamPath,
      body: read.body,
      decoded: gzip,
    });
  }

  /** Clone, fetch and ref advertisement: streamed both ways with the gateway's credential. */
  private async proxy(req: IncomingMessage, res: ServerResponse, route: Route, access: GitAccess) {
    const length = req.headers['content-length'];
    const upstream = await sendUpstream({
      baseUrl: this.deps.upstreamUrl,
      path: route.upstreamPath,
      method: req.method ?? 'GET',
      headers: upstreamHeaders(req.headers, {
        contentLength: length === undefined ? undefined : Number(length),
      }),
      authorization: await this.deps.auth.authorization(route.repo, access),
      body: req.method === 'GET' ? null : req,
    }).catch((error: unknown) => {
      this.deps.logger.error({ err: error, repo: route.repo }, 'upstream git server unreachable');
      return null;
    });
    if (upstream === null) return plain(res, 502, 'the upstream git server could not be reached');
    const status = upstream.statusCode ?? 502;
    if (status === 401 || status === 403) {
      // Never let the client prompt for GitHub credentials: the problem is the gateway's own.
      upstream.resume();
      this.deps.logger.error({ repo: route.repo, status }, 'upstream refused the gateway credential');
      return plain(res, 502, `the upstream git server refused the gateway (HTTP ${status})`);
    }
    const headers: Record<string, string> = {};
    for (const name of ['content-type', 'cache-control', 'content-encoding', 'expires', 'pragma']) {
      const value = upstream.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    res.writeHead(status, headers);
    upstream.pipe(res);
  }
}

function plain(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'content-type': 'text/plain' });
  res.end(`${message}\n`);
}
