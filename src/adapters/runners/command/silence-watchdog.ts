/**
 * A4: the silence watchdog of a CLI agent's run (`silenceTimeoutMinutes`): no output for
 * `silenceMs` ends the agent. Heard from its stdout and stderr and from the hook channel's
 * decisions; a call waiting for an approval (`waiting`) is not silence.
 */
export class SilenceWatchdog {
  private lastOutputAt = Date.now();
  private timer: NodeJS.Timeout | undefined;
  /** True once the agent was ended for its silence. */
  silent = false;

  /** The agent was heard from (or a decision that took a while came back): its silence starts again. */
  heard(): void {
    this.lastOutputAt = Date.now();
  }

  /** Looks a few times per `silenceMs` (at least every second); `onSilent` once it is over. */
  start(silenceMs: number, waiting: () => boolean, onSilent: () => void): void {
    this.timer = setInterval(
      () => {
        if (waiting()) this.lastOutputAt = Date.now(); // waiting for an approval is not silence
        if (Date.now() - this.lastOutputAt < silenceMs) return;
        this.silent = true;
        clearInterval(this.timer);
        onSilent();
      },
      Math.max(10, Math.min(1000, Math.floor(silenceMs / 4))),
    );
  }

  stop(): void {
    clearInterval(this.timer);
  }
}
