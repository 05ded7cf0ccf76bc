import { deriveLiveStatus, type RunSummary } from '../../../src/core/agents/live-status';
import type { RunLiveness, RunStatus } from '../../../src/core/model/run';

let clock = 0;
const run = (status: RunStatus, liveness: RunLiveness = 'ok'): RunSummary => ({
  status,
  liveness,
  createdAt: new Date(Date.UTC(2026, 10, 29, 12, 0, clock++)),
});

describe('deriveLiveStatus (A12)', () => {
  it('is neverRun without any run', () => {
    expect(deriveLiveStatus([])).toBe('neverRun');
  });

  it.each<[string, string, RunSummary[]]>([
    ['a run in progress', 'running', [run('succeeded'), run('running')]],
    ['a queued run counts as work in progress', 'running', [run('succeeded'), run('queued')]],
    ['an older run still running, newest done', 'running', [run('running'), run('succeeded')]],
    ['a running run beside a stuck one', 'running', [run('running', 'blocked'), run('running')]],
    ['the last run succeeded', 'idle', [run('failed'), run('succeeded')]],
    ['the last run errored', 'failed', [run('succeeded'), run('failed')]],
    ['the last run liveness is failed', 'failed', [run('succeeded', 'failed')]],
    ['the last run died with its process', 'failed', [run('failed', 'dead')]],
    ['an earlier failure, then success', 'idle', [run('failed', 'dead'), run('succeeded')]],
    ['a running run waiting on an approval', 'blocked', [run('running', 'blocked')]],
    ['a running run gone silent', 'blocked', [run('running', 'stalled')]],
    ['a running run repeating one tool call', 'blocked', [run('running', 'looping')]],
    ['the last run ended stalled', 'blocked', [run('succeeded', 'stalled')]],
    ['the last run ended looping', 'blocked', [run('succeeded', 'looping')]],
    ['a failed status wins over stuck liveness', 'failed', [run('failed', 'looping')]],
  ])('%s → %s', (_name, expected, runs) => {
    expect(deriveLiveStatus(runs)).toBe(expected);
  });

  it('does not depend on the order the runs are given in', () => {
    const older = run('failed');
    const newer = run('succeeded');
    expect(deriveLiveStatus([newer, older])).toBe('idle');
    expect(deriveLiveStatus([older, newer])).toBe('idle');
  });
});
