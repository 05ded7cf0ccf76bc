import type { PullRequestRecord } from '../../../src/core/ports/pull-request-store';
import {
  failureText,
  MAX_FAILING_CHECKS,
  SUMMARY_LIMIT,
} from '../../../src/core/pull-requests/ci-failure-wake';
import { readSuiteCompleted } from '../../../src/core/pull-requests/pull-request-events';

const pull: PullRequestRecord = {
  id: 'p1',
  workspaceId: 'w1',
  conversationId: 'c1',
  agentId: 'a1',
  runId: null,
  repo: 'acme/api',
  number: 7,
  headSha: 'abcdef0123456789',
  title: 'Fix it',
  url: 'https://github.com/acme/api/pull/7',
  state: 'open',
  checks: 'failure',
  cardRef: null,
};
const suite = {
  repo: 'acme/api',
  suiteId: 1,
  headSha: 'abcdef0123456789',
  checks: 'failure' as const,
  numbers: [7],
};

describe('P23: what a CI failure tells the agent', () => {
  it('P23: names the commit and each failing check with its summary', () => {
    const text = failureText(pull, suite, [{ name: 'unit', summary: '2 failed', url: null }]);
    expect(text).toContain('pull request #7');
    expect(text).toContain('abcdef012345');
    expect(text).toContain('- unit: 2 failed');
  });

  it('P23: bounded: at most five checks, each summary clipped', () => {
    const many = Array.from({ length: 9 }, (_, i) => ({
      name: `check ${i}`,
      summary: 'x'.repeat(50_000),
      url: null,
    }));
    const text = failureText(pull, suite, many);
    expect(text.length).toBeLessThan(MAX_FAILING_CHECKS * (SUMMARY_LIMIT + 100) + 500);
    expect(text).toContain('check 4');
    expect(text).not.toContain('check 5:');
    expect(text).toContain('and 4 more failing checks');
  });

  it('P23, bad input: a check_suite payload that is not one reads as nothing; timed_out counts as failure', () => {
    expect(readSuiteCompleted({ action: 'completed', check_suite: { id: 'x' } })).toBeNull();
    const read = readSuiteCompleted({
      action: 'completed',
      check_suite: { id: 3, head_sha: 'abcdef0', conclusion: 'timed_out', pull_requests: [{ number: 2 }] },
      repository: { full_name: 'Acme/API' },
    });
    expect(read).toEqual({
      repo: 'acme/api',
      suiteId: 3,
      headSha: 'abcdef0',
      checks: 'failure',
      numbers: [2],
    });
  });
});
