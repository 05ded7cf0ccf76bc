import Ajv, { type ValidateFunction } from 'ajv';
import type { GitHubChecksStandIn } from './github-checks-stand-in';
import type { GitHubIssuesStandIn } from './github-issues-stand-in';

const DOCS = 'https://docs.github.com/rest/pulls/pulls#list-pull-requests';

let compiled: Map<string, ValidateFunction> | null = null;
/** The query parameters of `GET /repos/{owner}/{repo}/pulls`, from GitHub's OpenAPI description. */
function parameters(): Map<string, ValidateFunction> {
  if (compiled !== null) return compiled;
  type Parameter = { name?: string; in?: string; schema?: object; $ref?: string };
  const spec = require('@octokit/openapi/generated/api.github.com.json') as {
    paths: Record<string, Record<string, { parameters: Parameter[] }>>;
    components: { parameters: Record<string, Parameter> };
  };
  const ajv = new Ajv({ strict: false, allErrors: true, coerceTypes: true });
  const list = spec.paths['/repos/{owner}/{repo}/pulls']?.get?.parameters ?? [];
  compiled = new Map();
  for (const entry of list) {
    const parameter =
      entry.$ref === undefined ? entry : spec.components.parameters[entry.$ref.split('/').at(-1) ?? ''];
    if (parameter?.in === 'query' && parameter.name !== undefined && parameter.schema !== undefined)
      compiled.set(parameter.name, ajv.compile(parameter.schema));
  }
  return compiled;
}

/**
 * GitHub's list of a repository's pull requests (`GET /repos/{owner}/{repo}/pulls`) on the
 * issues stand-in's server (its tokens: 401 without a known one), as GitHub answers it: query
 * parameters checked against GitHub's OpenAPI description (422 otherwise); `state` open by
 * default; `head` as `user:ref-name` filters by the head repository's owner and branch, and a
 * `head` without the owner is ignored, as GitHub does (every pull request is listed). Heads are
 * the checks stand-in's (their branches, their commits).
 */
export class GitHubPullsStandIn {
  /** Pull requests closed (`repo#number`); the others are open. */
  readonly closed = new Set<string>();
  /** Every list request's query, oldest first. */
  readonly lists: URLSearchParams[] = [];
  private readonly parameters = parameters();

  constructor(
    private readonly issues: GitHubIssuesStandIn,
    private readonly checks: GitHubChecksStandIn,
  ) {
    issues.extensions.push((method, path, _body, _writer, query) => this.answer(method, path, query));
  }

  private answer(method: string, path: string, query: URLSearchParams): [number, unknown] | null {
    const found = /^\/repos\/([^/]+)\/([^/]+)\/pulls$/.exec(path);
    if (found === null || method !== 'GET') return null;
    const [, owner = '', name = ''] = found;
    const repo = `${owner}/${name}`;
    if (!this.issues.repos.includes(repo)) return [404, { message: 'Not Found', documentation_url: DOCS }];
    this.lists.push(query);
    const errors: string[] = [];
    for (const [key, value] of query) {
      const validate = this.parameters.get(key);
      if (validate !== undefined && !validate(value)) errors.push(`${key} ${validate.errors?.[0]?.message}`);
    }
    if (errors.length > 0) return [422, { message: 'Validation Failed', errors, documentation_url: DOCS }];
    const state = query.get('state') ?? 'open';
    const head = query.get('head') ?? '';
    const colon = head.indexOf(':');
    const pulls = this.issues.issues.filter((issue) => {
      if (!issue.pull || issue.repo !== repo) return false;
      const closed = this.closed.has(`${repo}#${issue.number}`);
      if ((state === 'open' && closed) || (state === 'closed' && !closed)) return false;
      if (colon < 0) return true;
      const user = head.slice(0, colon).toLowerCase();
      return (
        user === owner.toLowerCase() && head.slice(colon + 1) === this.checks.headRefOf(repo, issue.number)
      );
    });
    return [200, pulls.map((issue) => this.simple(repo, issue.number, issue.title, issue.login))];
  }

  /** A `pull-request-simple`, with the fields Summon reads and their neighbours. */
  private simple(repo: string, number: number, title: string, login: string) {
    const [owner = ''] = repo.split('/');
    const ref = this.checks.headRefOf(repo, number);
    const repository = { full_name: repo, name: repo.split('/')[1], owner: { login: owner } };
    return {
      url: `https://api.github.com/repos/${repo}/pulls/${number}`,
      html_url: `https://github.com/${repo}/pull/${number}`,
      number,
      state: this.closed.has(`${repo}#${number}`) ? 'closed' : 'open',
      title,
      user: { login },
      draft: false,
      head: { label: `${owner}:${ref}`, ref, sha: this.checks.headOf(repo, number), repo: repository },
      base: { label: `${owner}:main`, ref: 'main', repo: repository },
    };
  }
}
