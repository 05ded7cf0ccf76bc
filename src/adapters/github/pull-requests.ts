import { Octokit } from '@octokit/rest';
import { resolveRunAction } from '../../core/git/push-policy';
import type { Logger } from '../../core/ports/logger';
import type { Store } from '../../core/ports/store';
import { readRunScope, scopeRepos } from '../../core/spaces/run-scope';
import type { GatewayApprovals } from '../git-gateway/gateway-deps';
import { DEFAULT_GITHUB_API_URL, type GitHubTokens } from './github-app-auth';

export interface OpenPullRequestInput {
  runId: string;
  /** "owner/name"; must be one of the run's space repositories. */
  repo: string;
  head: string;
  base: string;
  title: string;
  body?: string;
  draft?: boolean;
}

export type OpenPullRequestResult = { ok: true; url: string; number: number } | { ok: false; reason: string };

export interface PullRequestDeps {
  store: Store;
  approvals: GatewayApprovals;
  tokens: GitHubTokens;
  /** GITHUB_API_URL (default https://api.github.com). */
  apiUrl?: string;
  /** Posts a line in the run's thread (the PR link). */
  post(runId: string, text: string): Promise<void>;
  logger: Logger;
  approvalTtlMs?: number;
  /**
   * P22: the chat thread ⇄ pull request link (the core's `PullRequestLinks`): the lines the body
   * ends with (the thread's link), and the pull request recorded on the conversation and shown
   * in its thread. Absent: the link is posted as a line in the thread.
   */
  links?: {
    bodyLines(runId: string): Promise<string>;
    recordOpened(opened: {
      runId: string;
      repo: string;
      number: number;
      headSha: string | null;
      title: string;
      url: string;
    }): Promise<void>;
  };
}

/**
 * G1, G2, G4: the `open_pull_request` operation behind the agent tool. Resolved for the run's
 * agent and space like any gated action: `deny` is refused with the reason, `ask` posts an
 * approval card and waits for it, `allow` (or approved) creates the pull request through
 * @octokit/rest with a token scoped to that repository, and posts its link in the thread.
 */
export class PullRequests {
  constructor(private readonly deps: PullRequestDeps) {}

  async open(input: OpenPullRequestInput, signal?: AbortSignal): Promise<OpenPullRequestResult> {
    const { store } = this.deps;
    const scope = await readRunScope(store, input.runId);
    if (scope === null) return { ok: false, reason: `There is no run ${input.runId}.` };
    const repos = scopeRepos(scope);
    if (!repos.some((r) => r.toLowerCase() === input.repo.toLowerCase())) {
      return {
        ok: false,
        reason: `${input.repo} is not a repository of this space (${repos.join(', ') || 'none'}).`,
      };
    }
    const resolution = await resolveRunAction(store, scope.run, 'open_pull_request');
    if (resolution.decision === 'deny') return { ok: false, reason: resolution.reason };
    if (resolution.decision === 'ask') {
      const approval = await this.deps.approvals.requestApproval({
        runId: input.runId,
        action: 'open_pull_request',
        details: {
          summary: `open a pull request on ${input.repo}: ${input.head} → ${input.base}`,
          lines: [`repository ${input.repo}`, `${input.head} → ${input.base}`, `title: ${input.title}`],
        },
        ...(this.deps.approvalTtlMs === undefined ? {} : { ttlMs: this.deps.approvalTtlMs }),
      });
      // G4, T1: the engine's approval wait: no slot held, no polling.
      const outcome = await this.deps.approvals.awaitApproval(
        approval.id,
        signal ?? new AbortController().signal,
      );
      if (outcome === 'aborted') return { ok: false, reason: 'The run stopped while waiting for approval.' };
      if (outcome !== 'allow') {
        return { ok: false, reason: 'The pull request was not approved (denied or expired).' };
      }
    }
    const [owner = '', name = ''] = input.repo.split('/');
    const octokit = new Octokit({
      baseUrl: this.deps.apiUrl ?? DEFAULT_GITHUB_API_URL,
      auth: await this.deps.tokens.token(input.repo, { pull_requests: 'write' }),
      log: { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} },
    });
    const { links } = this.deps;
    // P22: the body links the thread the pull request was asked for in.
    const body =
      links === undefined ? input.body : `${input.body ?? ''}${await links.bodyLines(input.runId)}`;
    try {
      const { data } = await octokit.rest.pulls.create({
        owner,
        repo: name,
        head: input.head,
        base: input.base,
        title: input.title,
        ...(body === undefined ? {} : { body }),
        ...(input.draft === undefined ? {} : { draft: input.draft }),
      });
      if (links === undefined)
        await this.deps.post(input.runId, `Opened pull request #${data.number}: ${data.html_url}`);
      else
        await links
          .recordOpened({
            runId: input.runId,
            repo: input.repo,
            number: data.number,
            headSha: data.head.sha ?? null,
            title: data.title,
            url: data.html_url,
          })
          .catch((error: unknown) =>
            this.deps.logger.warn(
              { err: String(error), runId: input.runId },
              'the pull request could not be recorded',
            ),
          );
      this.deps.logger.info(
        { runId: input.runId, repo: input.repo, number: data.number },
        'pull request opened',
      );
      return { ok: true, url: data.html_url, number: data.number };
    } catch (error) {
      const status = (error as { status?: number }).status;
      const message = (
        error as { response?: { data?: { message?: string; errors?: { message?: string }[] } } }
      ).response?.data;
      const detail = [message?.message, ...(message?.errors ?? []).map((e) => e.message)]
        .filter(Boolean)
        .join(': ');
      this.deps.logger.warn(
        { runId: input.runId, repo: input.repo, status },
        'opening a pull request failed',
      );
      return {
        ok: false,
        reason: `GitHub refused the pull request (HTTP ${status ?? '?'}${detail ? `: ${detail}` : ''}).`,
      };
    }
  }
}
