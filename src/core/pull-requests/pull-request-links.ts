import { postInConversation } from '../engine/cards/post-in-conversation';
import type { OutboundMessage } from '../ports/chat-platform';
import type { FailingCheck, FailingChecks } from '../ports/failing-checks';
import type { GitHubDelivery } from '../ports/github-events';
import type { PullRequestRecord } from '../ports/pull-request-store';
import { readRunScope } from '../spaces/run-scope';
import { type FailureWakeDeps, wakeOnFailure } from './ci-failure-wake';
import { pullRequestCardText, threadLinkLines } from './pull-request-card';
import {
  type PullRequestChange,
  readPullRequestChange,
  readSuiteCompleted,
  type SuiteCompleted,
} from './pull-request-events';

export interface PullRequestLinkDeps extends FailureWakeDeps {
  /** P23: the failing check runs of a suite; null when no GitHub credential is set (the agent is told less). */
  failingChecks: FailingChecks | null;
}

/** P22: a pull request an agent just opened. */
export interface OpenedPullRequest {
  runId: string;
  repo: string;
  number: number;
  headSha: string | null;
  title: string;
  url: string;
}

const cardMessage = (pull: PullRequestRecord): OutboundMessage => ({
  as: { kind: 'system' },
  content: { kind: 'text', text: pullRequestCardText(pull) },
});

/**
 * P22, P23: a chat thread and the pull requests its agents opened, joined both ways. The pull
 * request's body links the thread; the thread shows the pull request in one message, edited in
 * place as GitHub reports its head, state and checks (`pull_request`, `check_suite`
 * completed); a failing suite wakes the agent that opened it (P23). Comments on it are routed
 * to the same conversation by the store's routing reads.
 */
export class PullRequestLinks {
  constructor(private readonly deps: PullRequestLinkDeps) {}

  /** P22: the lines the pull request's body ends with: the agent and the link to its thread. */
  async bodyLines(runId: string): Promise<string> {
    const scope = await readRunScope(this.deps.store, runId);
    const conversation = scope?.conversation ?? null;
    const agent = scope === null ? null : await this.agentName(scope.run.workspaceId, scope.run.agentId);
    const platform = conversation === null ? undefined : this.deps.platforms.get(conversation.platform);
    const link =
      conversation?.threadId == null || platform?.threadLink === undefined
        ? null
        : await platform.threadLink(conversation.threadId).catch(() => null);
    return threadLinkLines(agent ?? 'an agent', link);
  }

  /** P22: records the pull request on the run's conversation and shows it in the thread. */
  async recordOpened(opened: OpenedPullRequest): Promise<void> {
    const { store } = this.deps;
    const scope = await readRunScope(store, opened.runId);
    const conversation = scope?.conversation ?? null;
    if (scope === null || conversation === null) return;
    const pull = await store.inWorkspace(conversation.workspaceId, (tx) =>
      tx.pullRequests.insert({
        workspaceId: conversation.workspaceId,
        conversationId: conversation.id,
        agentId: scope.run.agentId,
        runId: opened.runId,
        repo: opened.repo,
        number: opened.number,
        headSha: opened.headSha,
        title: opened.title,
        url: opened.url,
      }),
    );
    const shown = { ...pull, state: 'open' as const, checks: 'pending' as const };
    const message = await store.inWorkspace(conversation.workspaceId, (tx) =>
      tx.messages.insert(conversation.workspaceId, {
        conversationId: conversation.id,
        authorKind: 'system',
        authorAgentId: null,
        authorMemberId: null,
        text: pullRequestCardText(shown),
        mentions: { agents: [], members: [] },
        platformMessageRef: null,
        note: null,
      }),
    );
    const ref = await postInConversation(
      this.deps,
      conversation,
      { kind: 'message', id: message.id },
      cardMessage(shown),
    );
    if (ref !== null)
      await store.inWorkspace(conversation.workspaceId, (tx) =>
        tx.pullRequests.update(pull.id, { cardRef: ref }),
      );
  }

  /** P22, P23: a verified GitHub delivery (the front end's event source); others are ignored. */
  async handle(delivery: GitHubDelivery): Promise<void> {
    if (delivery.name === 'pull_request') {
      const change = readPullRequestChange(delivery.payload);
      if (change !== null) await this.pullRequestChanged(change);
    } else if (delivery.name === 'check_suite' && delivery.action === 'completed') {
      const suite = readSuiteCompleted(delivery.payload);
      if (suite !== null) await this.suiteCompleted(suite);
    }
  }

  private async pullRequestChanged(change: PullRequestChange): Promise<void> {
    const pull = await this.deps.store.transaction((tx) => tx.pullRequests.find(change.repo, change.number));
    if (pull === null) return;
    const moved = pull.headSha !== change.headSha;
    if (!moved && pull.title === change.title && pull.state === change.state) return;
    // A new head commit has no checks yet.
    const patch = {
      headSha: change.headSha,
      title: change.title,
      state: change.state,
      ...(moved ? { checks: 'pending' as const } : {}),
    };
    await this.deps.store.inWorkspace(pull.workspaceId, (tx) => tx.pullRequests.update(pull.id, patch));
    await this.redraw({ ...pull, ...patch });
  }

  private async suiteCompleted(suite: SuiteCompleted): Promise<void> {
    const pulls = await this.deps.store.transaction(async (tx) => {
      const named = await Promise.all(suite.numbers.map((n) => tx.pullRequests.find(suite.repo, n)));
      const byHead = await tx.pullRequests.findByHead(suite.repo, suite.headSha);
      const all = [...named.filter((p) => p !== null), ...byHead];
      return [...new Map(all.map((p) => [p.id, p])).values()];
    });
    // A suite of an older commit changes nothing the thread shows.
    for (const pull of pulls.filter((p) => p.headSha === null || p.headSha === suite.headSha)) {
      const patch = { headSha: suite.headSha, checks: suite.checks };
      await this.deps.store.inWorkspace(pull.workspaceId, (tx) => tx.pullRequests.update(pull.id, patch));
      await this.redraw({ ...pull, ...patch });
      // P23: a merged or closed pull request has nothing left to fix.
      if (suite.checks === 'failure' && pull.state === 'open')
        await wakeOnFailure(this.deps, pull, suite, await this.failing(suite));
    }
  }

  /** P23: the suite's failing checks; what GitHub does not answer is left out (the wake goes on). */
  private async failing(suite: SuiteCompleted): Promise<FailingCheck[]> {
    try {
      return (await this.deps.failingChecks?.ofSuite(suite.repo, suite.suiteId)) ?? [];
    } catch (error) {
      this.deps.logger.warn(
        { err: String(error), repo: suite.repo },
        'the failing check runs could not be read',
      );
      return [];
    }
  }

  /** P22: the thread's message of the pull request, edited in place. */
  private async redraw(pull: PullRequestRecord): Promise<void> {
    if (pull.cardRef === null) return;
    const conversation = await this.deps.store.inWorkspace(pull.workspaceId, (tx) =>
      tx.conversations.findById(pull.conversationId),
    );
    const platform = conversation === null ? undefined : this.deps.platforms.get(conversation.platform);
    if (conversation?.threadId == null || platform === undefined) return;
    await platform
      .update(conversation.threadId, pull.cardRef, cardMessage(pull))
      .catch((error: unknown) =>
        this.deps.logger.warn(
          { err: String(error), number: pull.number },
          'the pull request’s message could not be updated',
        ),
      );
  }

  private async agentName(workspaceId: string, agentId: string): Promise<string | null> {
    const agents = await this.deps.store.inWorkspace(workspaceId, (tx) => tx.agents.list(workspaceId));
    return agents.find((a) => a.id === agentId)?.name ?? null;
  }
}
