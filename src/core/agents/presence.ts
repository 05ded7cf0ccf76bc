import type { AgentPresence } from '../model/agent-view';
import type { RunLiveness, RunStatus } from '../model/run';
import type { RunnerEvent } from '../ports/runner';

/*
 * A13: presence (`AgentPresence`) from run events. The events are this process's
 * (`RunActivityBoard`); a run another worker executes is judged from the store (its liveness,
 * its pending approvals, its checkpoint's call in flight), so every process shows the runs of
 * every worker.
 */

/** What a run in progress is doing, from its events: the model's turn, or tool calls in flight. */
export interface RunActivity {
  /** Call ids of the tool calls started and not yet ended. */
  openCalls: readonly string[];
}

export const NO_ACTIVITY: RunActivity = { openCalls: [] };

/** A13: a run event moves its activity on: `tool_start` opens a call, `tool_end` closes it. */
export function activityAfter(activity: RunActivity, event: RunnerEvent): RunActivity {
  if (event.type === 'tool_start' && !activity.openCalls.includes(event.callId))
    return { openCalls: [...activity.openCalls, event.callId] };
  if (event.type === 'tool_end') return { openCalls: activity.openCalls.filter((id) => id !== event.callId) };
  return activity;
}

/** The parts of a run that presence depends on. */
export interface PresenceRun {
  status: RunStatus;
  liveness: RunLiveness;
  /** The run's activity as its events showed it; null when no event was seen here (yet). */
  activity: RunActivity | null;
  /** G4: an approval of this run is waiting for a decision. */
  awaitingApproval: boolean;
  /**
   * T2, A13: the run's stored checkpoint has a tool call handed to the tools that has not
   * reported back (written by whichever worker runs it, so true across processes).
   */
  callInFlight: boolean;
}

const IN_PROGRESS: readonly RunStatus[] = ['queued', 'running'];

/**
 * A13: an agent's presence from its recent runs; null when it never ran (no events, nothing to
 * say). Among the runs in progress the one that most needs people wins: a run waiting on an
 * approval (`blockedOnApproval`), then one with a tool call in flight (`running`; this includes
 * waiting on another agent or a person's answer, which are tool calls), then one on the
 * model's turn or queued for it (`thinking`). Nothing in progress: `done`.
 */
export function derivePresence(runs: readonly PresenceRun[]): AgentPresence | null {
  if (runs.length === 0) return null;
  const inProgress = runs.filter((run) => IN_PROGRESS.includes(run.status));
  if (inProgress.length === 0) return 'done';
  if (inProgress.some((run) => run.awaitingApproval)) return 'blockedOnApproval';
  // A run executed by another worker has no activity here: what the store shows decides. Its
  // checkpoint has a call in flight, or it is `blocked` (not on an approval): a tool works or waits.
  const calling = (run: PresenceRun) =>
    run.activity === null
      ? run.liveness === 'blocked' || run.callInFlight
      : run.activity.openCalls.length > 0;
  if (inProgress.some(calling)) return 'running';
  return 'thinking';
}
