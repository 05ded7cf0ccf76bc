import type { RunLiveness, RunStatus } from '../model/run';
import type { RunnerEvent } from '../ports/runner';

/**
 * A13: presence, a coarser live picture than A12's live status, from run events: the model is
 * `thinking`, a tool call is `running`, a call is `blockedOnApproval`, or the agent is `done`.
 */
export const AGENT_PRESENCES = ['thinking', 'running', 'blockedOnApproval', 'done'] as const;
export type AgentPresence = (typeof AGENT_PRESENCES)[number];

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
  // A run seen elsewhere has no activity here; stored as `blocked` (not on an approval), a tool waits.
  const calling = (run: PresenceRun) =>
    run.activity === null ? run.liveness === 'blocked' : run.activity.openCalls.length > 0;
  if (inProgress.some(calling)) return 'running';
  return 'thinking';
}
