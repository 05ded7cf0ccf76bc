import fc from 'fast-check';
import {
  activityAfter,
  derivePresence,
  NO_ACTIVITY,
  type PresenceRun,
  type RunActivity,
} from '../../../src/core/agents/presence';
import { RunActivityBoard } from '../../../src/core/agents/run-activity-board';
import { RUN_LIVENESS, RUN_STATUSES } from '../../../src/core/model/run';
import type { RunnerEvent } from '../../../src/core/ports/runner';

const run = (fields: Partial<PresenceRun>): PresenceRun => ({
  status: 'running',
  liveness: 'ok',
  activity: NO_ACTIVITY,
  awaitingApproval: false,
  callInFlight: false,
  ...fields,
});
const calling: RunActivity = { openCalls: ['call-1'] };

describe('A13: presence from run events', () => {
  it('an agent that never ran has no presence', () => {
    expect(derivePresence([])).toBeNull();
  });

  it('thinking on the model’s turn, running while a tool call is in flight, done when nothing is in progress', () => {
    expect(derivePresence([run({})])).toBe('thinking');
    expect(derivePresence([run({ status: 'queued', activity: null })])).toBe('thinking');
    expect(derivePresence([run({ activity: calling })])).toBe('running');
    expect(
      derivePresence([run({ status: 'succeeded' }), run({ status: 'failed', liveness: 'failed' })]),
    ).toBe('done');
  });

  it('blocked on approval wins over every other run in progress; a decided approval of a finished run does not count', () => {
    expect(
      derivePresence([
        run({ activity: calling }),
        run({ awaitingApproval: true, liveness: 'blocked' }),
        run({}),
      ]),
    ).toBe('blockedOnApproval');
    expect(derivePresence([run({ status: 'succeeded', awaitingApproval: true })])).toBe('done');
  });

  it('a run seen only in the store: blocked (a tool waits on an agent or a person) is running', () => {
    expect(derivePresence([run({ activity: null, liveness: 'blocked' })])).toBe('running');
    expect(derivePresence([run({ activity: null, liveness: 'stalled' })])).toBe('thinking');
  });

  it('T2, A13: a run another worker executes whose checkpoint has a call in flight is running; this process’s own events win', () => {
    expect(derivePresence([run({ activity: null, callInFlight: true })])).toBe('running');
    expect(derivePresence([run({ activity: null, callInFlight: false })])).toBe('thinking');
    // Seen here, the events are newer than the last checkpoint (e.g. the call just reported back).
    expect(derivePresence([run({ activity: NO_ACTIVITY, callInFlight: true })])).toBe('thinking');
    expect(derivePresence([run({ activity: null, callInFlight: true, awaitingApproval: true })])).toBe(
      'blockedOnApproval',
    );
  });

  it('tool_start opens a call and tool_end closes it; other events leave the activity alone', () => {
    const events: RunnerEvent[] = [
      { type: 'thinking' },
      { type: 'tool_start', callId: 'a', tool: 'bash', summary: 'ls' },
      { type: 'tool_start', callId: 'b', tool: 'read_file', summary: 'x' },
      { type: 'text', delta: 'hm' },
      { type: 'tool_end', callId: 'a', ok: true },
    ];
    const after = events.reduce(activityAfter, NO_ACTIVITY);
    expect(after.openCalls).toEqual(['b']);
    expect(activityAfter(after, { type: 'tool_end', callId: 'b', ok: false }).openCalls).toEqual([]);
    // a repeated start of the same call is one call
    expect(
      activityAfter(after, { type: 'tool_start', callId: 'b', tool: 'x', summary: '' }).openCalls,
    ).toEqual(['b']);
  });

  it('the board keeps each run’s activity until it finishes', () => {
    const board = new RunActivityBoard();
    expect(board.activityOf('r1')).toBeNull();
    board.observe('r1', { type: 'tool_start', callId: 'c', tool: 'bash', summary: 'ls' });
    board.observe('r2', { type: 'thinking' });
    expect(board.activityOf('r1')?.openCalls).toEqual(['c']);
    expect(board.activityOf('r2')?.openCalls).toEqual([]);
    board.finish('r1');
    expect(board.activityOf('r1')).toBeNull();
  });

  it('property: presence is done exactly when no run is in progress, and never null for some runs', () => {
    const arbitraryRun = fc.record({
      status: fc.constantFrom(...RUN_STATUSES),
      liveness: fc.constantFrom(...RUN_LIVENESS),
      activity: fc.option(fc.record({ openCalls: fc.array(fc.string(), { maxLength: 3 }) }), { nil: null }),
      awaitingApproval: fc.boolean(),
      callInFlight: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.array(arbitraryRun, { minLength: 1, maxLength: 6 }), (runs) => {
        const presence = derivePresence(runs);
        const inProgress = runs.some((r) => r.status === 'queued' || r.status === 'running');
        expect(presence === 'done').toBe(!inProgress);
        expect(presence).not.toBeNull();
      }),
    );
  });
});
