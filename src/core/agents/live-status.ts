import type { AgentLiveStatus, RunLiveness, RunStatus } from '../model/run';

/** The parts of a run record that an agent's live status depends on. */
export interface RunSummary {
  status: RunStatus;
  liveness: RunLiveness;
  createdAt: Date;
}

const IN_PROGRESS: readonly RunStatus[] = ['queued', 'running'];
const STUCK: readonly RunLiveness[] = ['blocked', 'stalled', 'looping'];
const BROKEN: readonly RunLiveness[] = ['failed', 'dead'];

/**
 * A12: live status is never stored; it is derived at each read from the latest runs.
 *
 * - `neverRun`: no run at all.
 * - `running`: at least one run in progress (queued or running) whose liveness is `ok`.
 *   A queued run counts: the agent has work it is about to do.
 * - `blocked`: every run in progress is stuck (liveness `blocked`, `stalled`, `looping`), or,
 *   with nothing in progress, the last run ended stuck.
 * - `failed`: the last run errored, or its liveness is `failed` or `dead`.
 * - `idle`: otherwise.
 *
 * A run still in progress but stuck is `blocked`, not `running`: the team should see an
 * agent waiting on an approval or gone silent, which is what `blocked` is for.
 */
export function deriveLiveStatus(runs: readonly RunSummary[]): AgentLiveStatus {
  if (runs.length === 0) return 'neverRun';

  const inProgress = runs.filter((run) => IN_PROGRESS.includes(run.status));
  if (inProgress.some((run) => run.liveness === 'ok')) return 'running';
  if (inProgress.some((run) => STUCK.includes(run.liveness))) return 'blocked';

  const last = latest(runs);
  if (last.status === 'failed' || BROKEN.includes(last.liveness)) return 'failed';
  if (STUCK.includes(last.liveness)) return 'blocked';
  return 'idle';
}

function latest(runs: readonly RunSummary[]): RunSummary {
  return runs.reduce((newest, run) => (run.createdAt > newest.createdAt ? run : newest));
}
