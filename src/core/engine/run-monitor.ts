import type { RunLiveness } from '../model/run';
import type { RunnerEvent } from '../ports/runner';

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

  stop(): void {
    if (this.silenceTimer !== null) clearTimeout(this.silenceTimer);
    this.silenceTimer = null;
  }

  private armSilence(): void {
    if (this.silenceTimer !== null) clearTimeout(this.silenceTimer);
    this.silenceTimer = setTimeout(() => this.set('stalled'), this.silenceMs);
    this.silenceTimer.unref();
  }

  private set(liveness: RunLiveness): void {
    if (liveness === this.liveness) return;
    this.liveness = liveness;
    this.onChange(liveness);
  }
}
