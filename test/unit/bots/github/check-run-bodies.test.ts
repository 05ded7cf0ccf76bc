import {
  APPROVE,
  approvalCheck,
  approvalOfExternalId,
  DENY,
  endedCheck,
  progressCheck,
} from '../../../../src/bots/github/check-run-bodies';
import { readClick } from '../../../../src/bots/github/check-run-clicks';
import type { ApprovalCard } from '../../../../src/core/ports/chat-platform';

const card = (over: Partial<ApprovalCard> = {}): ApprovalCard => ({
  approvalId: '0b6f4c1e-1111-4a4a-9c9c-123456789abc',
  agent: 'engineer',
  action: 'push_to_remote',
  summary: 'push to acme/api main',
  details: ['main: 1a2b3c → 4d5e6f'],
  status: 'pending',
  decidedBy: null,
  ...over,
});

describe('P21, G4: check run bodies', () => {
  it('G4, P21: an approval’s buttons keep within GitHub’s limits (label ≤ 20, description ≤ 40, identifier ≤ 20), whatever the agent’s name', () => {
    const long = approvalCheck(card({ agent: 'a'.repeat(80), summary: 's'.repeat(500) }), null, 'https://x');
    expect(long.conclusion).toBe('action_required');
    expect(long.actions).toHaveLength(2);
    for (const action of long.actions ?? []) {
      expect(action.label.length).toBeLessThanOrEqual(20);
      expect(action.description.length).toBeLessThanOrEqual(40);
      expect(action.identifier.length).toBeLessThanOrEqual(20);
    }
    expect(long.title.length).toBeLessThanOrEqual(120);
    expect(approvalOfExternalId(long.externalId)).toBe(card().approvalId);
  });

  it('G4, P21: decided, the check says the verdict, who and where, and has no buttons', () => {
    const approved = approvalCheck(card({ status: 'approved', decidedBy: 'dana' }), 'slack', 'https://x');
    expect(approved).toMatchObject({
      conclusion: 'success',
      title: 'Approved by dana in Slack',
      actions: [],
    });
    const expired = approvalCheck(card({ status: 'expired' }), null, 'https://x');
    expect(expired).toMatchObject({ conclusion: 'failure', title: 'Expired', actions: [] });
  });

  it('P21: a running turn’s summary is its card’s rows, bounded; a failure’s error is bounded', () => {
    const rows = Array.from({ length: 2_000 }, (_, i) => `bash: step ${i}`);
    const running = progressCheck('run-1', {
      agent: 'engineer',
      state: 'working',
      headline: 'Working on it…',
      rows,
    });
    expect(running.status).toBe('in_progress');
    expect(running.summary.length).toBeLessThanOrEqual(4_000);
    expect(running.summary).toContain('- bash: step 0');
    const failed = endedCheck('engineer', 'run-1', { outcome: 'failure', error: 'x'.repeat(100_000) });
    expect(failed).toMatchObject({ status: 'completed', conclusion: 'failure' });
    expect(failed.summary.length).toBeLessThanOrEqual(2_000);
  });

  it('G4: a click is read only from Approve / Deny on a check run Summon wrote for an approval', () => {
    const payload = (identifier: string, externalId: string) => ({
      requested_action: { identifier },
      check_run: { external_id: externalId, pull_requests: [{ number: 7 }] },
      sender: { login: 'dana-gh' },
      repository: { full_name: 'Acme/API' },
    });
    expect(readClick(payload(APPROVE, 'summon-approval:abc'))).toEqual({
      repo: 'acme/api',
      login: 'dana-gh',
      approvalId: 'abc',
      verdict: 'approve',
      pull: 7,
    });
    expect(readClick(payload(DENY, 'summon-approval:abc'))?.verdict).toBe('deny');
    expect(readClick(payload('lgtm', 'summon-approval:abc'))).toBeNull();
    expect(readClick(payload(APPROVE, 'summon-run:abc'))).toBeNull();
    expect(readClick(payload(APPROVE, 'summon-approval:'))).toBeNull();
    expect(readClick({})).toBeNull();
  });
});
