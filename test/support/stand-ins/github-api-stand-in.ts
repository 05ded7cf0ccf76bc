import { createPublicKey, randomBytes, verify } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

const DOCS = 'https://docs.github.com/rest';

type Schemas = { accessTokens: ValidateFunction; createPull: ValidateFunction };
/** Compiling them takes seconds: once per test file. */
let compiled: Schemas | null = null;
const requestSchemas = (): Schemas => {
  compiled ??= compileRequestSchemas();
  return compiled;
};

/** GitHub's request-body schemas, taken from its OpenAPI description (@octokit/openapi). */
function compileRequestSchemas(): Schemas {
  const spec = require('@octokit/openapi/generated/api.github.com.json') as {
    paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: unknown }> } }>>;
    components: unknown;
  };
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addFormat('repo.nwo', /^[^/]+\/[^/]+$/);
  ajv.addSchema({ components: spec.components } as object, 'github');
  const compile = (path: string, method: string) => {
    const schema = spec.paths[path]?.[method]?.requestBody?.content['application/json']?.schema;
    if (schema === undefined) throw new Error(`no request schema for ${method} ${path}`);
    // Local refs (#/components/…) point into the document registered as "github".
    const rewritten = JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"github#/components/'));
    return ajv.compile(rewritten);
  };
  return {
    accessTokens: compile('/app/installations/{installation_id}/access_tokens', 'post'),
    createPull: compile('/repos/{owner}/{repo}/pulls', 'post'),
  };
}

export interface MintedToken {
  token: string;
  installationId: number;
  repositories: string[] | null;
  permissions: Record<string, string>;
}

/**
 * The GitHub REST API for a GitHub App, validating like GitHub: app endpoints need an RS256
 * JWT signed with the app's key (iss = app id, at most 10 minutes); installation tokens are
 * scoped to repositories and permissions; request bodies are checked against GitHub's OpenAPI
 * description (400 for unparsable JSON, 422 with GitHub's error shape otherwise).
 */
export class GitHubApiStandIn {
  readonly minted: MintedToken[] = [];
  readonly requests: { method: string; url: string; status: number; body: unknown }[] = [];
  readonly pulls: { repo: string; number: number; head: string; base: string; title: string }[] = [];
  /** Branches that exist, per repository ("owner/name" → names). */
  readonly branches = new Map<string, Set<string>>();
  /** Repositories `GET /repos/{owner}/{repo}` knows ("owner/name" → what it reports). */
  readonly repositories = new Map<string, { description: string | null; stars: number; private: boolean }>();
  /** Tokens accepted besides minted ones (a GITHUB_TOKEN set-up). */
  readonly staticTokens = new Set<string>();
  private server: Server | null = null;
  private readonly schemas = requestSchemas();
  private readonly publicKey;

  constructor(
    private readonly app: { id: number; publicKeyPem: string; installations: Record<string, number> },
    private readonly onToken: (token: MintedToken) => void = () => {},
  ) {
    this.publicKey = createPublicKey(app.publicKeyPem);
  }

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      let raw = '';
      req.on('data', (c: Buffer) => {
        raw += c.toString();
      });
      req.on('end', () => this.serve(req, res, raw));
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    return this.url;
  }

  get url(): string {
    const address = this.server?.address() as AddressInfo | undefined;
    if (address === undefined) throw new Error('the stand-in is not started');
    return `http://127.0.0.1:${address.port}`;
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.server?.closeAllConnections();
      this.server?.close(() => resolve());
    });
  }

  private serve(req: IncomingMessage, res: ServerResponse, raw: string) {
    const send = (status: number, body: unknown) => {
      this.requests.push({ method: req.method ?? '', url: req.url ?? '', status, body: parsed });
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify(body));
    };
    let parsed: unknown = null;
    if (raw !== '') {
      try {
        parsed = JSON.parse(raw);
      } catch {
        return send(400, { message: 'Problems parsing JSON', documentation_url: DOCS });
      }
    }
    const url = new URL(req.url ?? '/', 'http://x');
    const installationOf = /^\/repos\/([^/]+)\/([^/]+)\/installation$/.exec(url.pathname);
    const tokens = /^\/app\/installations\/(\d+)\/access_tokens$/.exec(url.pathname);
    const pulls = /^\/repos\/([^/]+)\/([^/]+)\/pulls$/.exec(url.pathname);

    if (installationOf || tokens) {
      const jwt = this.checkJwt(req.headers.authorization);
      if (jwt !== null) return send(401, { message: jwt, documentation_url: DOCS });
    }
    if (req.method === 'GET' && installationOf) {
      const id = this.app.installations[`${installationOf[1]}/${installationOf[2]}`.toLowerCase()];
      if (id === undefined) return send(404, { message: 'Not Found', documentation_url: DOCS });
      return send(200, {
        id,
        app_id: this.app.id,
        target_type: 'Organization',
        permissions: { contents: 'write' },
      });
    }
    if (req.method === 'POST' && tokens) {
      const body = (parsed ?? {}) as { repositories?: string[]; permissions?: Record<string, string> };
      if (!this.schemas.accessTokens(body)) return send(422, invalid(this.schemas.accessTokens));
      const installationId = Number(tokens[1]);
      const owned = Object.entries(this.app.installations).filter(([, id]) => id === installationId);
      if (owned.length === 0) return send(404, { message: 'Not Found', documentation_url: DOCS });
      const unknown = (body.repositories ?? []).filter(
        (name) => !owned.some(([repo]) => repo.split('/')[1] === name.toLowerCase()),
      );
      if (unknown.length > 0) {
        return send(422, {
          message:
            'There is at least one repository that does not exist or is not accessible to the parent installation.',
          documentation_url: DOCS,
        });
      }
      const minted: MintedToken = {
        token: `ghs_${randomBytes(18).toString('hex')}`,
        installationId,
        repositories: body.repositories ?? null,
        permissions: body.permissions ?? { contents: 'write', metadata: 'read', pull_requests: 'write' },
      };
      this.minted.push(minted);
      this.onToken(minted);
      return send(201, {
        token: minted.token,
        expires_at: new Date(Date.now() + 3600_000).toISOString(),
        permissions: minted.permissions,
        repository_selection: body.repositories ? 'selected' : 'all',
      });
    }
    const repoOnly = /^\/repos\/([^/]+)\/([^/]+)$/.exec(url.pathname);
    if (req.method === 'GET' && repoOnly) {
      const repo = `${repoOnly[1]}/${repoOnly[2]}`;
      const token = (req.headers.authorization ?? '').replace(/^(token|bearer) /i, '');
      const known =
        token === '' || this.staticTokens.has(token) || this.minted.some((m) => m.token === token);
      if (!known) return send(401, { message: 'Bad credentials', documentation_url: DOCS });
      const found = this.repositories.get(repo);
      if (found === undefined || (found.private && token === ''))
        return send(404, { message: 'Not Found', documentation_url: DOCS });
      return send(200, {
        id: 5000 + this.repositories.size,
        name: repoOnly[2],
        full_name: repo,
        owner: { login: repoOnly[1] },
        private: found.private,
        description: found.description,
        stargazers_count: found.stars,
        default_branch: 'main',
      });
    }
    if (req.method === 'POST' && pulls) {
      const repo = `${pulls[1]}/${pulls[2]}`;
      const token = (req.headers.authorization ?? '').replace(/^(token|bearer) /i, '');
      const grant = this.minted.find((m) => m.token === token);
      if (grant === undefined) return send(401, { message: 'Bad credentials', documentation_url: DOCS });
      const name = pulls[2] ?? '';
      const covers = grant.repositories === null || grant.repositories.includes(name);
      if (!covers || grant.permissions.pull_requests !== 'write') {
        return send(403, { message: 'Resource not accessible by integration', documentation_url: DOCS });
      }
      if (!this.schemas.createPull(parsed)) return send(422, invalid(this.schemas.createPull));
      const body = parsed as { head: string; base: string; title: string };
      const branches = this.branches.get(repo) ?? new Set();
      const errors = [
        ...(branches.has(body.head) ? [] : [{ resource: 'PullRequest', field: 'head', code: 'invalid' }]),
        ...(branches.has(body.base) ? [] : [{ resource: 'PullRequest', field: 'base', code: 'invalid' }]),
      ];
      if (errors.length > 0)
        return send(422, { message: 'Validation Failed', errors, documentation_url: DOCS });
      const number = this.pulls.length + 1;
      this.pulls.push({ repo, number, head: body.head, base: body.base, title: body.title });
      return send(201, {
        id: 1000 + number,
        number,
        state: 'open',
        title: body.title,
        html_url: `https://github.com/${repo}/pull/${number}`,
        head: { ref: body.head },
        base: { ref: body.base },
      });
    }
    return send(404, { message: 'Not Found', documentation_url: DOCS });
  }

  /** Null when the JWT is good; GitHub's message otherwise. */
  private checkJwt(header: string | undefined): string | null {
    const jwt = (header ?? '').replace(/^bearer /i, '');
    const [h, p, s] = jwt.split('.');
    if (h === undefined || p === undefined || s === undefined) return 'A JSON web token could not be decoded';
    const ok = verify('RSA-SHA256', Buffer.from(`${h}.${p}`), this.publicKey, Buffer.from(s, 'base64url'));
    if (!ok) return 'A JSON web token could not be decoded';
    const claims = JSON.parse(Buffer.from(p, 'base64url').toString()) as {
      iss?: unknown;
      iat?: number;
      exp?: number;
    };
    if (String(claims.iss) !== String(this.app.id)) return 'Integration not found';
    const now = Math.floor(Date.now() / 1000);
    if (
      claims.exp === undefined ||
      claims.iat === undefined ||
      claims.exp - claims.iat > 600 ||
      claims.exp < now
    ) {
      return "'Expiration time' claim ('exp') is too far in the future";
    }
    return null;
  }
}

function invalid(validate: ValidateFunction) {
  return {
    message: 'Invalid request.',
    errors: (validate.errors ?? []).map((e) => `${e.instancePath || 'body'} ${e.message ?? 'is invalid'}`),
    documentation_url: DOCS,
  };
}
