import type { RunnerEvent } from '../ports/runner';
import { activityAfter, NO_ACTIVITY, type RunActivity } from './presence';

/**
 * A13: the activity of the runs this process executes, from their events (the engine reports
 * each event and each run's end; App Home reads it). Runs executed by another process are not
 * here: their presence falls back to what the store shows (in progress → `thinking`).
 */
export class RunActivityBoard {
  private readonly runs = new Map<string, RunActivity>();

  observe(runId: string, event: RunnerEvent): void {
    this.runs.set(runId, activityAfter(this.runs.get(runId) ?? NO_ACTIVITY, event));
  }

  finish(runId: string): void {
    this.runs.delete(runId);
  }

  activityOf(runId: string): RunActivity | null {
    return this.runs.get(runId) ?? null;
  }
}
