import { postInConversation } from '../engine/cards/post-in-conversation';
import { queuedRun } from '../engine/routing/queued-run';
import type { RunJob } from '../engine/run-job';
import type { Platform } from '../model/platform';
import type { ChatPlatform } from '../ports/chat-platform';
import type { Clock } from '../ports/clock';
import type { FailingCheck } from '../ports/failing-checks';
import type { Logger } from '../ports/logger';
import type { PullRequestRecord } from '../ports/pull-request-store';
import type { Store } from '../ports/store';
import type { SuiteCompleted } from './pull-request-events';

/** P23: at most this many failing checks, each summary at most this long, reach the prompt. */
export const MAX_FAILING_CHECKS = 5;
export const SUMMARY_LIMIT = 1_000;

export interface FailureWakeDeps {
  store: Store;
  platforms: ReadonlyMap<Platform, ChatPlatform>;
  wake: (job: RunJob) => Promise<void>;
  clock: Clock;
  logger: Logger;
}

/** P23: what the woken agent reads: which commit failed, and the failing checks' names and summaries (bounded). */
export function failureText(
  pull: PullRequestRecord,
  suite: SuiteCompleted,
  checks: readonly FailingCheck[],
): string {
  const lines = [
    `The checks of pull request #${pull.number} (${pull.url}) failed on commit ${suite.headSha.slice(0, 12)}.`,
  ];
  for (const check of checks.slice(0, MAX_FAILING_CHECKS)) {
    const summary = clip((check.summary ?? '').trim(), SUMMARY_LIMIT);
    lines.push(
      `- ${check.name}${summary === '' ? '' : `: ${summary}`}${check.url === null ? '' : ` (${check.url})`}`,
    );
  }
  if (checks.length > MAX_FAILING_CHECKS)
    lines.push(`- …and ${checks.length - MAX_FAILING_CHECKS} more failing checks`);
  if (checks.length === 0)
    lines.push('(GitHub named no failing check run; look at the pull request’s checks.)');
  lines.push('Find the cause, fix it and push to the same branch.');
  return lines.join('\n');
}

const clip = (text: string, limit: number) => (text.length <= limit ? text : `${text.slice(0, limit - 1)}…`);

/**
 * P23: wakes the agent that opened the pull request, in its conversation, once per failing
 * head commit: the claim (a unique key in PostgreSQL), the message that says what failed and
 * the queued run are one commit; a redelivery or a second failing suite on the same commit
 * finds the claim taken and wakes nobody. O3: the run's budgets are checked when it starts,
 * like any other run's.
 */
export async function wakeOnFailure(
  deps: FailureWakeDeps,
  pull: PullRequestRecord,
  suite: SuiteCompleted,
  checks: readonly FailingCheck[],
): Promise<string | null> {
  const log = deps.logger.child({ component: 'pull-requests', repo: pull.repo, number: pull.number });
  const text = failureText(pull, suite, checks);
  const woken = await deps.store.inWorkspace(pull.workspaceId, async (tx) => {
    if (!(await tx.pullRequests.claimFailureWake(pull, suite.headSha))) return null;
    const conversation = await tx.conversations.findById(pull.conversationId);
    const agent = (await tx.agents.list(pull.workspaceId)).find((a) => a.id === pull.agentId);
    if (conversation === null || agent === undefined) return null;
    const message = await tx.messages.insert(pull.workspaceId, {
      conversationId: conversation.id,
      authorKind: 'system',
      authorAgentId: null,
      authorMemberId: null,
      text,
      mentions: { agents: [{ agentId: agent.id, name: agent.name }], members: [] },
      platformMessageRef: null,
      note: null,
    });
    const run = await tx.runs.insert(
      queuedRun(
        {
          workspaceId: pull.workspaceId,
          agentId: agent.id,
          conversationId: conversation.id,
          triggerMessageId: message.id,
          createdAt: deps.clock.now(),
        },
        { by: 'person', memberId: null },
      ),
    );
    await tx.pullRequests.setFailureWakeRun(pull.id, suite.headSha, run.id);
    return { conversation, messageId: message.id, runId: run.id };
  });
  if (woken === null) {
    log.info(
      { headSha: suite.headSha },
      'a failing commit already woke its agent (or its conversation is gone)',
    );
    return null;
  }
  const { conversation, messageId, runId } = woken;
  await postInConversation(
    deps,
    conversation,
    { kind: 'message', id: messageId },
    {
      as: { kind: 'system' },
      content: { kind: 'text', text },
    },
  ).catch((error: unknown) =>
    log.warn({ err: String(error) }, 'the CI failure could not be shown in the thread'),
  );
  await deps.wake({
    runId,
    lane: {
      workspaceId: pull.workspaceId,
      agentId: pull.agentId,
      conversationId: conversation.id,
      spaceId: conversation.spaceId,
    },
  });
  log.info({ runId, headSha: suite.headSha }, 'CI failure woke the pull request’s agent');
  return runId;
}
