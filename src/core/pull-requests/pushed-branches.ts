import type { RefUpdate } from '../model/git-gateway';
import type { BranchPullRequest, BranchPullRequests } from '../ports/branch-pull-requests';
import type { Logger } from '../ports/logger';
import type { Store } from '../ports/store';
import type { CheckedTurn, TurnChecks } from '../ports/turn-checks';
import { type RunScope, readRunScope, scopeRepos } from '../spaces/run-scope';
import type { OpenedPullRequest } from './pull-request-links';

export interface PushedBranchesDeps {
  store: Store;
  /** GitHub's open pull requests of a branch. */
  pulls: BranchPullRequests;
  /** P21: the engine's check runs, when configured (a GitHub App). */
  checks?: TurnChecks;
  /** P22: records a pull request on the run's conversation and shows it in the thread. */
  record: (pull: OpenedPullRequest) => Promise<void>;
  logger: Logger;
}

/** A push as the gateway forwarded it: the pushing run, the repository, the refs upstream accepted. */
export interface AcceptedPush {
  runId: string;
  repo: string;
  updates: readonly RefUpdate[];
}

const BRANCH = 'refs/heads/';
const NONE = /^0+$/;

/**
 * P21, P22: a push the gateway forwarded to the branch of an open pull request. The pull
 * request is recorded on the pushing turn's chat conversation when no conversation has it yet
 * and it is in a repository of the turn's space (the thread shows it; later turns show on it), and
 * the turn's check moves to the pushed commit. A branch deleted by the push has no pull request
 * to show. A lookup GitHub does not answer is logged once and ends the work for that push: it
 * never fails the push or the turn.
 */
export class PushedBranches {
  constructor(private readonly deps: PushedBranchesDeps) {}

  async accepted(push: AcceptedPush): Promise<void> {
    const branches = push.updates.filter((u) => u.ref.startsWith(BRANCH) && !NONE.test(u.newId));
    if (branches.length === 0) return;
    const scope = await readRunScope(this.deps.store, push.runId);
    if (scope?.conversation == null) return;
    const turn = await this.turnOf(scope);
    for (const update of branches) {
      const branch = update.ref.slice(BRANCH.length);
      let pulls: BranchPullRequest[];
      try {
        pulls = await this.deps.pulls.openOfBranch(push.repo, branch);
      } catch (error) {
        this.deps.logger.warn(
          { err: String(error), status: (error as { status?: unknown }).status, repo: push.repo, branch },
          'the pushed branch’s pull requests could not be read',
        );
        return;
      }
      for (const pull of pulls) await this.recordOnConversation(scope, push, update.newId, pull);
      // One check run per commit: it shows on every pull request whose head that commit is.
      const [first] = pulls;
      if (turn !== null && first !== undefined)
        turn.checks.pushed(turn.turn, {
          repo: push.repo,
          number: first.number,
          headSha: update.newId,
          url: first.url,
        });
    }
  }

  /** The turn a check shows, when there are checks and the turn has a thread. */
  private async turnOf(scope: RunScope): Promise<{ checks: TurnChecks; turn: CheckedTurn } | null> {
    const { checks } = this.deps;
    const conversation = scope.conversation;
    const thread = conversation?.threadId ?? null;
    // Not `covers`: a push shows on its pull request whatever the conversation (an issue's too).
    if (checks === undefined || conversation == null || thread === null) return null;
    const { workspaceId, agentId } = scope.run;
    const agents = await this.deps.store.inWorkspace(workspaceId, (tx) => tx.agents.list(workspaceId));
    const agent = agents.find((a) => a.id === agentId);
    if (agent === undefined) return null;
    return {
      checks,
      turn: { runId: scope.run.id, agent: agent.name, platform: conversation.platform, thread },
    };
  }

  /** P22: a pull request no conversation has yet, in a repository of the turn's space, from a chat thread. */
  private async recordOnConversation(
    scope: RunScope,
    push: AcceptedPush,
    headSha: string,
    pull: BranchPullRequest,
  ): Promise<void> {
    // On GitHub a pull request is its own conversation: an issue's would take its comments over.
    if (scope.conversation?.platform === 'github') return;
    const inSpace = scopeRepos(scope).some((r) => r.toLowerCase() === push.repo.toLowerCase());
    if (!inSpace) return;
    const known = await this.deps.store.transaction((tx) => tx.pullRequests.find(push.repo, pull.number));
    if (known !== null) return;
    await this.deps
      .record({
        runId: push.runId,
        repo: push.repo,
        number: pull.number,
        headSha,
        title: pull.title,
        url: pull.url,
      })
      .catch((error: unknown) =>
        // Another turn's push may have recorded it meanwhile (one conversation per pull request).
        this.deps.logger.warn(
          { err: String(error), repo: push.repo, number: pull.number },
          'the pushed pull request could not be recorded on the conversation',
        ),
      );
  }
}
