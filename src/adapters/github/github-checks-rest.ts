import type { Octokit } from '@octokit/rest';
import type { CheckRunWrite, GitHubCheckRuns, PullHead } from '../../core/ports/github-check-runs';
import type { GitHubTokens } from './github-app-auth';
import { OctokitPerToken, ownerAndName } from './octokit-per-token';

/** What Summon's check runs need of an installation token: checks written, pull requests read. */
const CHECKS = { checks: 'write', pull_requests: 'read' } as const;

/** The request body of a check run's create or update, as GitHub names its fields. */
function fieldsOf(run: CheckRunWrite) {
  return {
    name: run.name,
    external_id: run.externalId,
    status: run.status,
    ...(run.conclusion === undefined ? {} : { conclusion: run.conclusion }),
    ...(run.detailsUrl === undefined ? {} : { details_url: run.detailsUrl }),
    output: { title: run.title, summary: run.summary },
    ...(run.actions === undefined ? {} : { actions: run.actions }),
  };
}

/**
 * P21: GitHub's checks API over `@octokit/rest` (`checks.create`, `checks.update`), with an
 * installation token for the repository. Only a GitHub App may write check runs (a personal
 * token is answered 403). Octokit throws GitHub's errors (`status`, message) to the caller.
 */
export class GitHubChecksRest implements GitHubCheckRuns {
  private readonly clients: OctokitPerToken;

  constructor(options: { apiUrl: string; tokens: GitHubTokens }) {
    this.clients = new OctokitPerToken(options);
  }

  private client(repo: string): Promise<Octokit> {
    return this.clients.client(repo, CHECKS);
  }

  async pullHead(repo: string, number: number): Promise<PullHead | null> {
    try {
      const { data } = await (await this.client(repo)).rest.pulls.get({
        ...ownerAndName(repo),
        pull_number: number,
      });
      return { headSha: data.head.sha, url: data.html_url };
    } catch (error) {
      if ((error as { status?: unknown }).status === 404) return null;
      throw error;
    }
  }

  async createCheckRun(repo: string, headSha: string, run: CheckRunWrite): Promise<number> {
    const { data } = await (await this.client(repo)).rest.checks.create({
      ...ownerAndName(repo),
      head_sha: headSha,
      ...fieldsOf(run),
    });
    return data.id;
  }

  async updateCheckRun(repo: string, id: number, run: CheckRunWrite): Promise<void> {
    await (await this.client(repo)).rest.checks.update({
      ...ownerAndName(repo),
      check_run_id: id,
      ...fieldsOf(run),
    });
  }

  async findCheckRun(
    repo: string,
    headSha: string,
    name: string,
    externalId: string,
  ): Promise<number | null> {
    const { data } = await (await this.client(repo)).rest.checks.listForRef({
      ...ownerAndName(repo),
      ref: headSha,
      check_name: name,
      filter: 'latest',
      per_page: 100,
    });
    return data.check_runs.find((run) => run.external_id === externalId)?.id ?? null;
  }
}
