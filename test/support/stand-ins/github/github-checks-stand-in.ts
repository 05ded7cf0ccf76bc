import { createHash } from 'node:crypto';
import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { GitHubIssuesStandIn } from './github-issues-stand-in';

const DOCS = 'https://docs.github.com/rest/checks/runs';

/** One state of a check run, as it was written (the stand-in keeps every write). */
export interface CheckRunState {
  status: string;
  conclusion: string | null;
  title: string;
  summary: string;
  actions: { label: string; description: string; identifier: string }[];
  detailsUrl: string | null;
}

export interface StandInCheckRun {
  id: number;
  repo: string;
  headSha: string;
  name: string;
  externalId: string | null;
  /** Every write, oldest first; the last is how GitHub shows it. */
  states: CheckRunState[];
}

let compiled: { create: ValidateFunction; update: ValidateFunction } | null = null;
/** GitHub's request schemas of the checks API, from its OpenAPI description (@octokit/openapi). */
function schemas() {
  if (compiled !== null) return compiled;
  const spec = require('@octokit/openapi/generated/api.github.com.json') as {
    paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: unknown }> } }>>;
  };
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  const schema = (path: string, method: string) => {
    const found = spec.paths[path]?.[method]?.requestBody?.content['application/json']?.schema;
    if (found === undefined) throw new Error(`no request schema for ${method} ${path}`);
    return ajv.compile(found as object);
  };
  compiled = {
    create: schema('/repos/{owner}/{repo}/check-runs', 'post'),
    update: schema('/repos/{owner}/{repo}/check-runs/{check_run_id}', 'patch'),
  };
  return compiled;
}

const failed = (errors: string[]): [number, unknown] => [
  422,
  { message: 'Invalid request.', errors, documentation_url: DOCS },
];

/**
 * GitHub's checks API and pull requests' heads, on the issues stand-in's server, validating as
 * GitHub does: request bodies against GitHub's OpenAPI description (actions at most 3, label ≤ 20,
 * description ≤ 40, identifier ≤ 20 characters), a name and a summary with every output, a
 * conclusion once completed, a known head commit; only a GitHub App's token (a bot) may write
 * check runs (403 otherwise). `failNext` answers the next calls 502 (GitHub having a bad moment).
 */
export class GitHubChecksStandIn {
  readonly runs: StandInCheckRun[] = [];
  private readonly heads = new Map<string, string>();
  private readonly headRefs = new Map<string, string>();
  private branchSha: ((repo: string, ref: string) => string | null) | null = null;
  private nextId = 7_000_001;
  private failing = 0;
  private readonly schemas = schemas();

  constructor(private readonly issues: GitHubIssuesStandIn) {
    issues.extensions.push((method, path, body, writer, query) =>
      this.answer(method, path, body, writer, query),
    );
  }

  /**
   * The head commit of pull request `number`: as moved, else its branch's commit when branches
   * are followed and it has one, else a fixed made-up sha.
   */
  headOf(repo: string, number: number): string {
    const moved = this.heads.get(`${repo}#${number}`);
    if (moved !== undefined) return moved;
    const onBranch = this.branchSha?.(repo, this.headRefOf(repo, number)) ?? null;
    return onBranch ?? createHash('sha1').update(`${repo}#${number}`).digest('hex');
  }

  /** The branch pull request `number` is opened from (`pr-<number>` unless set). */
  headRefOf(repo: string, number: number): string {
    return this.headRefs.get(`${repo}#${number}`) ?? `pr-${number}`;
  }

  setHeadRef(repo: string, number: number, ref: string): void {
    this.headRefs.set(`${repo}#${number}`, ref);
  }

  /** P21: heads follow their branches in a real repository (a push moves them), as GitHub's do. */
  followBranches(read: (repo: string, ref: string) => string | null): void {
    this.branchSha = read;
  }

  /** A push moved the pull request's head. */
  moveHead(repo: string, number: number, sha: string): void {
    this.heads.set(`${repo}#${number}`, sha);
  }

  /** The next `count` checks API calls are answered 502. */
  failNext(count: number): void {
    this.failing = count;
  }

  /** The check runs named `name` (all when absent). */
  named(name?: string): StandInCheckRun[] {
    return this.runs.filter((run) => name === undefined || run.name === name);
  }

  private answer(
    method: string,
    path: string,
    body: Record<string, unknown>,
    writer: { login: string; bot: boolean },
    query: URLSearchParams,
  ): [number, unknown] | null {
    const found =
      /^\/repos\/([^/]+\/[^/]+)\/(pulls\/(\d+)|check-runs(?:\/(\d+))?|commits\/([0-9a-f]{40})\/check-runs)$/.exec(
        path,
      );
    if (found === null) return null;
    const [, repo = '', , pull, runId, ref] = found;
    const notFound: [number, unknown] = [404, { message: 'Not Found', documentation_url: DOCS }];
    if (!this.issues.repos.includes(repo)) return notFound;
    if (pull !== undefined) {
      if (method !== 'GET') return null;
      const issue = this.issues.issues.find((i) => i.repo === repo && i.number === Number(pull) && i.pull);
      if (issue === undefined) return notFound;
      return [
        200,
        {
          number: issue.number,
          title: issue.title,
          head: { sha: this.headOf(repo, issue.number), ref: this.headRefOf(repo, issue.number) },
          html_url: `https://github.com/${repo}/pull/${issue.number}`,
        },
      ];
    }
    if (this.failing > 0) {
      this.failing -= 1;
      return [502, { message: 'Server Error' }];
    }
    if (ref !== undefined) {
      if (method !== 'GET') return null;
      const runs = this.runs.filter(
        (r) =>
          r.repo === repo &&
          r.headSha === ref &&
          (!query.has('check_name') || r.name === query.get('check_name')),
      );
      return [200, { total_count: runs.length, check_runs: runs.map((r) => this.shown(r)) }];
    }
    if (!writer.bot)
      return [403, { message: 'You must authenticate via a GitHub App.', documentation_url: DOCS }];
    if (runId === undefined) return method === 'POST' ? this.create(repo, body) : null;
    if (method !== 'PATCH') return null;
    const run = this.runs.find((r) => r.repo === repo && r.id === Number(runId));
    return run === undefined ? notFound : this.update(run, body);
  }

  private create(repo: string, body: Record<string, unknown>): [number, unknown] {
    if (!this.schemas.create(body)) return failed(errorsOf(this.schemas.create));
    const problems = rulesOf(body);
    if (body.name === '') problems.push('name cannot be blank');
    const headSha = String(body.head_sha);
    const known = this.issues.issues.some(
      (i) => i.pull && i.repo === repo && this.headOf(repo, i.number) === headSha,
    );
    if (!known) problems.push(`No commit found for SHA: ${headSha}`);
    if (problems.length > 0) return failed(problems);
    const run: StandInCheckRun = {
      id: this.nextId++,
      repo,
      headSha,
      name: String(body.name),
      externalId: typeof body.external_id === 'string' ? body.external_id : null,
      states: [],
    };
    run.states.push(stateOf(body, null));
    this.runs.push(run);
    return [201, this.shown(run)];
  }

  private update(run: StandInCheckRun, body: Record<string, unknown>): [number, unknown] {
    if (!this.schemas.update(body)) return failed(errorsOf(this.schemas.update));
    const problems = rulesOf(body);
    if (problems.length > 0) return failed(problems);
    if (typeof body.name === 'string') run.name = body.name;
    run.states.push(stateOf(body, run.states.at(-1) ?? null));
    return [200, this.shown(run)];
  }

  private shown(run: StandInCheckRun) {
    const state = run.states.at(-1);
    return {
      id: run.id,
      name: run.name,
      head_sha: run.headSha,
      external_id: run.externalId,
      status: state?.status,
      conclusion: state?.conclusion,
      output: { title: state?.title, summary: state?.summary },
    };
  }
}

/** What GitHub refuses beyond the schema: a completed run needs a conclusion; output needs both texts. */
function rulesOf(body: Record<string, unknown>): string[] {
  const problems: string[] = [];
  if (body.status === 'completed' && body.conclusion === undefined)
    problems.push('conclusion is required when status is completed');
  const output = body.output as { title?: unknown; summary?: unknown } | undefined;
  if (output !== undefined && (output.title === '' || output.summary === ''))
    problems.push('output title and summary cannot be blank');
  return problems;
}

/** The run's state after a write: what the body gives, the rest as it was (a conclusion completes it). */
function stateOf(body: Record<string, unknown>, before: CheckRunState | null): CheckRunState {
  const output = body.output as { title: string; summary: string } | undefined;
  const conclusion = typeof body.conclusion === 'string' ? body.conclusion : (before?.conclusion ?? null);
  return {
    status: conclusion !== null ? 'completed' : String(body.status ?? before?.status ?? 'queued'),
    conclusion,
    title: output?.title ?? before?.title ?? '',
    summary: output?.summary ?? before?.summary ?? '',
    actions: (body.actions as CheckRunState['actions'] | undefined) ?? before?.actions ?? [],
    detailsUrl: typeof body.details_url === 'string' ? body.details_url : (before?.detailsUrl ?? null),
  };
}

const errorsOf = (validate: ValidateFunction): string[] =>
  (validate.errors ?? []).map((e) => `${e.instancePath || 'body'} ${e.message ?? 'is invalid'}`);
