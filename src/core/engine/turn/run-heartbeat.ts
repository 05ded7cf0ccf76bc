import type { Clock } from '../../ports/clock';
import type { Logger } from '../../ports/logger';
import type { Store } from '../../ports/store';

/**
 * A12: a worker proves its run alive by writing the run's `lastEventAt` every `intervalMs`;
 * a run unheard of for `deadAfterMs` belongs to a dead worker. One beat at a time: while the
 * database is away a beat waits in the store's retries (T2) and lands as soon as it is back,
 * rather than beats piling up. It beats from the claim until the run is finished and stored
 * (its reply, its finish), so a turn whose last steps wait out an outage is not taken for dead.
 */
export class RunHeartbeat {
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly run: { id: string; workspaceId: string },
    private readonly intervalMs: number,
  ) {}

  start(): void {
    this.schedule();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => void this.beat(), this.intervalMs);
    this.timer.unref();
  }

  private async beat(): Promise<void> {
    this.timer = null;
    const { id, workspaceId } = this.run;
    try {
      await this.store.inWorkspace(workspaceId, (tx) =>
        tx.runs.update(id, { lastEventAt: this.clock.now() }),
      );
    } catch (error) {
      this.logger.debug({ err: error, runId: id }, 'heartbeat not written');
    }
    this.schedule();
  }
}
