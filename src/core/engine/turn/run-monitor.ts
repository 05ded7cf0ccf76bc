import type { AgentRecord, RunRecord } from '../../model/records';
import type { RunLiveness } from '../../model/run';
import type { RunnerEvent } from '../../ports/runner';
import type { TurnDeps } from './turn-deps';

/**
 * A12 liveness from runner events: `stalled` after the agent's silence timeout without an
 * event, `looping` when the same tool call repeats `loopThreshold` times in a row; any new
 * event after a stall makes the run `ok` again.
 */
export class RunMonitor {
  private silenceTimer: NodeJS.Timeout | null = null;
  private lastCall: string | null = null;
  private repeats = 0;
  private liveness: RunLiveness = 'ok';
  private holds = 0;

  constructor(
    private readonly silenceMs: number,
    private readonly loopThreshold: number,
    private readonly onChange: (liveness: RunLiveness) => void,
  ) {}

  start(): void {
    this.armSilence();
  }

  observe(event: RunnerEvent): void {
    this.armSilence();
    if (event.type === 'tool_start') {
      const call = `${event.tool}\u0000${event.summary}`;
      this.repeats = call === this.lastCall ? this.repeats + 1 : 1;
      this.lastCall = call;
      if (this.repeats >= this.loopThreshold) {
        this.set('looping');
        return;
      }
    }
    if (this.liveness === 'stalled' || (this.liveness === 'looping' && event.type === 'tool_start'))
      this.set('ok');
  }

  /**
   * A12, N11, N13: while a tool waits on another agent, a person's answer or an approval, the
   * run is `blocked` (the tool says so), not silent: the silence timer is held, and re-armed
   * in full when the last wait ends.
   */
  hold(waiting: boolean): void {
    this.holds = Math.max(0, this.holds + (waiting ? 1 : -1));
    if (this.holds > 0) {
      if (this.silenceTimer !== null) clearTimeout(this.silenceTimer);
      this.silenceTimer = null;
    } else {
      this.armSilence();
    }
  }

  stop(): void {
    if (this.silenceTimer !== null) clearTimeout(this.silenceTimer);
    this.silenceTimer = null;
  }

  private armSilence(): void {
    if (this.holds > 0) {
      this.stop();
      return;
    }
    // A12: every runner event re-arms the same timer (a streamed reply sends many).
    if (this.silenceTimer !== null) {
      this.silenceTimer.refresh();
      return;
    }
    this.silenceTimer = setTimeout(() => this.set('stalled'), this.silenceMs);
    this.silenceTimer.unref();
  }

  private set(liveness: RunLiveness): void {
    if (liveness === this.liveness) return;
    this.liveness = liveness;
    this.onChange(liveness);
  }
}

/**
 * A12: watches run `run`'s liveness from its events (the agent's silence timeout, the loop
 * threshold); each change is counted and stored, best-effort (a failed write is logged).
 */
export function watchLiveness(
  deps: Pick<TurnDeps, 'store' | 'logger' | 'metrics' | 'timings'>,
  run: Pick<RunRecord, 'id' | 'workspaceId'>,
  agent: Pick<AgentRecord, 'silenceTimeoutMinutes'>,
): { monitor: RunMonitor; liveness: () => RunLiveness } {
  let liveness: RunLiveness = 'ok';
  const persist = (next: RunLiveness) => {
    liveness = next;
    deps.metrics?.livenessChanged(next);
    void deps.store
      .inWorkspace(run.workspaceId, (tx) => tx.runs.update(run.id, { liveness: next }))
      .catch((error: unknown) => deps.logger.warn({ err: error, runId: run.id }, 'liveness update failed'));
  };
  const monitor = new RunMonitor(agent.silenceTimeoutMinutes * 60_000, deps.timings.loopThreshold, persist);
  monitor.start();
  return { monitor, liveness: () => liveness };
}
