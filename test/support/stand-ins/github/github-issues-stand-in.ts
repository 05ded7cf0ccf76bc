import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

const DOCS = 'https://docs.github.com/rest';
/** GitHub refuses a comment or issue body longer than this. */
const BODY_LIMIT = 65_536;

/** The request bodies this stand-in takes, by operation, from GitHub's OpenAPI description. */
const OPERATIONS = {
  createComment: ['/repos/{owner}/{repo}/issues/{issue_number}/comments', 'post'],
  updateComment: ['/repos/{owner}/{repo}/issues/comments/{comment_id}', 'patch'],
  replyToReview: ['/repos/{owner}/{repo}/pulls/{pull_number}/comments/{comment_id}/replies', 'post'],
  updateReviewComment: ['/repos/{owner}/{repo}/pulls/comments/{comment_id}', 'patch'],
  createIssue: ['/repos/{owner}/{repo}/issues', 'post'],
  updateIssue: ['/repos/{owner}/{repo}/issues/{issue_number}', 'patch'],
} as const;
type Operation = keyof typeof OPERATIONS;

let compiled: Record<Operation, ValidateFunction> | null = null;
/** Compiling takes seconds: once per test file. */
function schemas(): Record<Operation, ValidateFunction> {
  if (compiled !== null) return compiled;
  const spec = require('@octokit/openapi/generated/api.github.com.json') as {
    paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: unknown }> } }>>;
    components: unknown;
  };
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema(openApiNullable({ components: spec.components }) as object, 'github');
  const compile = ([path, method]: readonly [string, string]) => {
    const schema = spec.paths[path]?.[method]?.requestBody?.content['application/json']?.schema;
    if (schema === undefined) throw new Error(`no request schema for ${method} ${path}`);
    return ajv.compile(
      openApiNullable(
        JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"github#/components/')),
      ) as object,
    );
  };
  compiled = Object.fromEntries(
    Object.entries(OPERATIONS).map(([name, op]) => [name, compile(op)]),
  ) as Record<Operation, ValidateFunction>;
  return compiled;
}

/** OpenAPI 3.0's `nullable: true` in JSON Schema: `null` is one more type allowed. */
function openApiNullable(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(openApiNullable);
  if (node === null || typeof node !== 'object') return node;
  const { nullable, ...rest } = node as Record<string, unknown>;
  const out = Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, openApiNullable(v)]));
  if (nullable !== true) return out;
  if (typeof out.type === 'string') return { ...out, type: [out.type, 'null'] };
  return { anyOf: [out, { type: 'null' }] };
}

export interface StandInComment {
  id: number;
  /** `issue` for an issue's or pull request's comment, `review` for a review comment. */
  kind: 'issue' | 'review';
  repo: string;
  number: number;
  /** A review comment's thread: the id of its first comment. */
  inReplyTo: number | null;
  body: string;
  login: string;
  /** Whether GitHub would say the author is a bot (an App's installation token). */
  bot: boolean;
  edits: number;
}

/** More routes of the stand-in: the answer (status, body) to a request, or null when it is not theirs. */
export type StandInRoutes = (
  method: string,
  path: string,
  body: Record<string, unknown>,
  writer: { login: string; bot: boolean },
  query: URLSearchParams,
) => [number, unknown] | null;

export interface StandInIssue {
  repo: string;
  number: number;
  title: string;
  body: string;
  pull: boolean;
  login: string;
}

/**
 * GitHub's REST API for issues, pull request review comments and collaborator permissions,
 * validating as GitHub does: a known token (`Authorization: token …` or `Bearer …`, 401
 * otherwise), request bodies against GitHub's OpenAPI description (422 with GitHub's error
 * shape; bodies past 65,536 characters too), unknown repositories, issues and comments 404.
 */
export class GitHubIssuesStandIn {
  readonly issues: StandInIssue[] = [];
  readonly comments: StandInComment[] = [];
  readonly requests: { method: string; path: string; status: number }[] = [];
  /** `repo\nlogin` → `admin`, `write`, `read`…; a login not listed is no collaborator (404). */
  readonly permissions = new Map<string, string>();
  /**
   * P7: answers to give instead of serving, oldest first, each to the next authorised request
   * whose method and path match (`POST /repos/acme/api/issues/1/comments`): GitHub's 502 or its
   * secondary rate limit (403 with `retry-after`), as GitHub sends them.
   */
  readonly failures: { method: string; path: RegExp; status: number; headers?: Record<string, string> }[] =
    [];
  /** P23: the check runs of each check suite (`GET …/check-suites/{id}/check-runs`). */
  readonly checkRuns = new Map<number, { name: string; conclusion: string; summary: string | null }[]>();
  /** More of GitHub's routes (the checks API): each answers a request, or null when it is not its. */
  readonly extensions: StandInRoutes[] = [];
  private server: Server | null = null;
  private nextId = 9_000_001;
  private readonly schemas = schemas();

  constructor(
    /** Accepted tokens and whom each writes as. */
    private readonly tokens: Record<string, { login: string; bot: boolean }>,
    readonly repos: readonly string[],
  ) {}

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => this.serve(req, res, Buffer.concat(chunks).toString('utf8')));
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    return this;
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

  /** An issue or pull request people opened. */
  open(
    repo: string,
    title: string,
    options: { pull?: boolean; login?: string; body?: string } = {},
  ): StandInIssue {
    const issue: StandInIssue = {
      repo,
      number: this.issues.filter((i) => i.repo === repo).length + 1,
      title,
      body: options.body ?? '',
      pull: options.pull ?? false,
      login: options.login ?? 'octocat',
    };
    this.issues.push(issue);
    return issue;
  }

  /** A comment a person wrote (what a webhook then reports). */
  addComment(fields: Omit<StandInComment, 'id' | 'edits'>): StandInComment {
    const comment = { ...fields, id: this.nextId++, edits: 0 };
    this.comments.push(comment);
    return comment;
  }

  /** The comments of an issue's thread or of a review thread, oldest first. */
  thread(repo: string, number: number, reviewComment: number | null = null): StandInComment[] {
    return this.comments.filter((c) =>
      reviewComment === null
        ? c.kind === 'issue' && c.repo === repo && c.number === number
        : c.kind === 'review' && c.repo === repo && (c.id === reviewComment || c.inReplyTo === reviewComment),
    );
  }

  private serve(req: IncomingMessage, res: ServerResponse, raw: string) {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const send = (status: number, body: unknown) => {
      this.requests.push({ method: req.method ?? '', path, status });
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify(body));
    };
    const auth = /^(?:token|Bearer) (\S+)$/.exec(req.headers.authorization ?? '')?.[1];
    const writer = auth === undefined ? undefined : this.tokens[auth];
    if (writer === undefined) return send(401, { message: 'Bad credentials', documentation_url: DOCS });
    let body: Record<string, unknown> = {};
    if (raw !== '') {
      try {
        body = JSON.parse(raw) as Record<string, unknown>;
      } catch {
        return send(400, { message: 'Problems parsing JSON', documentation_url: DOCS });
      }
    }
    const failure = this.failures.findIndex((f) => f.method === req.method && f.path.test(path));
    if (failure >= 0) {
      const [f] = this.failures.splice(failure, 1);
      this.requests.push({ method: req.method ?? '', path, status: f?.status ?? 500 });
      res.writeHead(f?.status ?? 500, { 'content-type': 'application/json; charset=utf-8', ...f?.headers });
      const message =
        f?.status === 403
          ? 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.'
          : 'Server Error';
      return res.end(JSON.stringify({ message, documentation_url: DOCS }));
    }
    const route = this.route(req.method ?? '', path);
    if (route === null) {
      const query = new URL(req.url ?? '/', 'http://x').searchParams;
      for (const routes of this.extensions) {
        const answered = routes(req.method ?? '', path, body, writer, query);
        if (answered !== null) return send(...answered);
      }
      return send(404, { message: 'Not Found', documentation_url: DOCS });
    }
    if (!this.repos.includes(route.repo)) return send(404, { message: 'Not Found', documentation_url: DOCS });
    if (route.op !== null) {
      const validate = this.schemas[route.op];
      if (!validate(body)) return send(422, invalid(validate));
      if (typeof body.body === 'string' && body.body.length > BODY_LIMIT) {
        return send(422, {
          message: 'Validation Failed',
          errors: [
            {
              resource: 'IssueComment',
              code: 'custom',
              field: 'body',
              message: 'body is too long (maximum is 65536 characters)',
            },
          ],
          documentation_url: DOCS,
        });
      }
    }
    const [status, answer] = this.answer(route, body, writer);
    send(status, answer);
  }

  private route(method: string, path: string): Route | null {
    for (const [verb, pattern, what, op] of ROUTES) {
      if (verb !== method) continue;
      const found = new RegExp(`^/repos/([^/]+/[^/]+)${pattern}$`).exec(path);
      if (found === null) continue;
      const [, repo = '', a = '0', b = '0'] = found;
      // The permission route's second part is a login, not a number.
      if (what === 'permission') return { op, repo, a: 0, b: 0, what, login: a };
      return { op, repo, a: Number(a), b: Number(b), what };
    }
    return null;
  }

  private answer(
    route: Route,
    body: Record<string, unknown>,
    writer: { login: string; bot: boolean },
  ): [number, unknown] {
    const notFound: [number, unknown] = [404, { message: 'Not Found', documentation_url: DOCS }];
    const text = typeof body.body === 'string' ? body.body : '';
    const issue = this.issues.find((i) => i.repo === route.repo && i.number === route.a);
    const comment = (kind: 'issue' | 'review') =>
      this.comments.find((c) => c.repo === route.repo && c.kind === kind && c.id === route.a);
    switch (route.what) {
      case 'createComment':
        if (issue === undefined) return notFound;
        return [
          201,
          this.shown(
            this.addComment({
              kind: 'issue',
              repo: route.repo,
              number: route.a,
              inReplyTo: null,
              body: text,
              ...writer,
            }),
          ),
        ];
      case 'listComments':
        if (issue === undefined) return notFound;
        return [
          200,
          this.thread(route.repo, route.a)
            .slice(-100)
            .map((c) => this.shown(c)),
        ];
      case 'updateComment':
      case 'updateReview': {
        const found = comment(route.what === 'updateComment' ? 'issue' : 'review');
        if (found === undefined) return notFound;
        found.body = text;
        found.edits += 1;
        return [200, this.shown(found)];
      }
      case 'reply': {
        const root = this.comments.find(
          (c) => c.kind === 'review' && c.repo === route.repo && c.id === route.b,
        );
        // GitHub answers a reply to a reply, or to a comment of another pull request, with 404.
        if (root === undefined || root.inReplyTo !== null || root.number !== route.a) return notFound;
        return [
          201,
          this.shown(
            this.addComment({
              kind: 'review',
              repo: route.repo,
              number: route.a,
              inReplyTo: root.id,
              body: text,
              ...writer,
            }),
          ),
        ];
      }
      case 'createIssue': {
        const opened = this.open(route.repo, String(body.title), { login: writer.login, body: text });
        return [
          201,
          {
            number: opened.number,
            title: opened.title,
            body: opened.body,
            html_url: `https://github.com/${route.repo}/issues/${opened.number}`,
          },
        ];
      }
      case 'suiteRuns': {
        const runs = this.checkRuns.get(route.a);
        if (runs === undefined) return notFound;
        return [
          200,
          {
            total_count: runs.length,
            check_runs: runs.map((run, i) => ({
              id: route.a * 100 + i,
              name: run.name,
              status: 'completed',
              conclusion: run.conclusion,
              html_url: `https://github.com/${route.repo}/runs/${route.a * 100 + i}`,
              output: { title: null, summary: run.summary, text: null, annotations_count: 0 },
            })),
          },
        ];
      }
      case 'updateIssue':
        if (issue === undefined) return notFound;
        if (typeof body.body === 'string') issue.body = body.body;
        return [200, { number: issue.number, title: issue.title, body: issue.body }];
      default: {
        const permission = this.permissions.get(`${route.repo}\n${(route.login ?? '').toLowerCase()}`);
        if (permission === undefined) return notFound;
        return [200, { permission, role_name: permission, user: { login: route.login, type: 'User' } }];
      }
    }
  }

  private shown(c: StandInComment) {
    const where =
      c.kind === 'issue' ? `issues/${c.number}#issuecomment-${c.id}` : `pull/${c.number}#discussion_r${c.id}`;
    return {
      id: c.id,
      body: c.body,
      html_url: `https://github.com/${c.repo}/${where}`,
      user: { login: c.login, type: c.bot ? 'Bot' : 'User' },
      ...(c.inReplyTo === null ? {} : { in_reply_to_id: c.inReplyTo }),
    };
  }
}

/** Method, path after `/repos/{owner}/{repo}`, what it does, the request body's operation. */
const ROUTES: readonly [string, string, string, Operation | null][] = [
  ['POST', '/issues/(\\d+)/comments', 'createComment', 'createComment'],
  ['GET', '/issues/(\\d+)/comments', 'listComments', null],
  ['PATCH', '/issues/comments/(\\d+)', 'updateComment', 'updateComment'],
  ['POST', '/pulls/(\\d+)/comments/(\\d+)/replies', 'reply', 'replyToReview'],
  ['PATCH', '/pulls/comments/(\\d+)', 'updateReview', 'updateReviewComment'],
  ['POST', '/issues', 'createIssue', 'createIssue'],
  ['PATCH', '/issues/(\\d+)', 'updateIssue', 'updateIssue'],
  ['GET', '/collaborators/([^/]+)/permission', 'permission', null],
  ['GET', '/check-suites/(\\d+)/check-runs', 'suiteRuns', null],
];

interface Route {
  op: Operation | null;
  repo: string;
  a: number;
  b: number;
  what: string;
  login?: string;
}

function invalid(validate: ValidateFunction) {
  return {
    message: 'Invalid request.',
    errors: (validate.errors ?? []).map((e) => `${e.instancePath || 'body'} ${e.message ?? 'is invalid'}`),
    documentation_url: DOCS,
  };
}
