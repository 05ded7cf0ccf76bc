import type { PullRequestChecks, PullRequestRecord } from '../ports/pull-request-store';

const CHECKS: Record<PullRequestChecks, string> = {
  pending: '⏳ checks running',
  success: '✅ checks passed',
  failure: '❌ checks failed',
  neutral: '➖ checks finished',
};

const STATE = { open: 'open', closed: '⛔ closed', merged: '🟣 merged' } as const;

/** P22: the one message that shows a pull request in its conversation's thread, edited in place. */
export function pullRequestCardText(
  pull: Pick<PullRequestRecord, 'number' | 'title' | 'url' | 'state' | 'checks'>,
) {
  return `🔀 Pull request #${pull.number}: ${pull.title}\n${pull.url}\n${STATE[pull.state]} · ${CHECKS[pull.checks]}`;
}

/** P22: the lines a pull request's body ends with: where it was asked for. */
export function threadLinkLines(agent: string, link: string | null): string {
  return link === null
    ? `\n\n---\nOpened by ${agent} through Summon.`
    : `\n\n---\nOpened by ${agent} through Summon from this conversation: ${link}`;
}
