import type { WaitSignals } from '../../ports/wait-signals';
import { waitTopics } from '../../ports/wait-signals';

/**
 * P15: a run's stop notifications, heard from the moment it subscribes. The turn subscribes
 * before it stores its card's ref and reads the run back in the same transaction (T3: one
 * transaction for both), and listens once its runner is about to start: a stop
 * asked before the read is in what it read, one asked after is heard, and one heard before
 * anyone listened is handed over when someone does.
 */
export class StopListener {
  private heard = false;
  private handler: (() => void) | null = null;
  private unsubscribe: () => void = () => {};

  static async open(waits: Pick<WaitSignals, 'subscribe'>, runId: string): Promise<StopListener> {
    const listener = new StopListener();
    listener.unsubscribe = await waits.subscribe(waitTopics.runStop(runId), () => listener.signal());
    return listener;
  }

  /** From now on each notification calls `handler`; once at once if one came before. */
  listen(handler: () => void): void {
    this.handler = handler;
    if (this.heard) handler();
  }

  /** Idempotent: the turn's end and its caller may both close it. */
  close(): void {
    this.handler = null;
    const unsubscribe = this.unsubscribe;
    this.unsubscribe = () => {};
    unsubscribe();
  }

  private signal(): void {
    this.heard = true;
    this.handler?.();
  }
}
