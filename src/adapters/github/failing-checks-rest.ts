import type { FailingCheck, FailingChecks } from '../../core/ports/failing-checks';
import type { GitHubTokens } from './github-app-auth';
import { OctokitPerToken, ownerAndName } from './octokit-per-token';

const FAILED = new Set(['failure', 'timed_out', 'startup_failure']);

/**
 * P23: a completed suite's failing check runs (`checks.listForSuite`, the first 100), with a
 * token for the repository that may read checks.
 */
export class FailingChecksRest implements FailingChecks {
  private readonly clients: OctokitPerToken;

  constructor(options: { apiUrl: string; tokens: GitHubTokens }) {
    this.clients = new OctokitPerToken(options);
  }

  async ofSuite(repo: string, suiteId: number): Promise<FailingCheck[]> {
    const octokit = await this.clients.client(repo, { checks: 'read' });
    const { data } = await octokit.rest.checks.listForSuite({
      ...ownerAndName(repo),
      check_suite_id: suiteId,
      status: 'completed',
      per_page: 100,
    });
    return data.check_runs
      .filter((run) => run.conclusion !== null && FAILED.has(run.conclusion))
      .map((run) => ({
        name: run.name,
        summary: run.output.summary ?? run.output.title ?? null,
        url: run.html_url ?? null,
      }));
  }
}
