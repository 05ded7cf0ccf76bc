import type { LiveCard } from '../../core/ports/live-card-relay';

interface Window {
  timer: NodeJS.Timeout;
  /** The newest change made during the window, sent when it closes. */
  pending: LiveCard | null;
}

/**
 * O5: at most one message per run per window. A run's first change goes at once and opens a
 * window; changes during it replace each other, and the newest goes when it closes (opening the
 * next). A turn making many tool calls a second costs the other processes one card a window,
 * and the last state always arrives.
 */
export class LiveCardCoalescer {
  private readonly windows = new Map<string, Window>();

  constructor(
    private readonly send: (card: LiveCard) => void,
    private readonly windowMs: number,
  ) {}

  push(card: LiveCard): void {
    const open = this.windows.get(card.runId);
    if (open !== undefined) {
      open.pending = card;
      return;
    }
    this.send(card);
    const timer = setTimeout(() => this.closeWindow(card.runId), this.windowMs);
    timer.unref();
    this.windows.set(card.runId, { timer, pending: null });
  }

  /** The run ended: what it had pending is not sent. */
  drop(runId: string): void {
    const open = this.windows.get(runId);
    if (open === undefined) return;
    clearTimeout(open.timer);
    this.windows.delete(runId);
  }

  close(): void {
    for (const runId of [...this.windows.keys()]) this.drop(runId);
  }

  private closeWindow(runId: string): void {
    const open = this.windows.get(runId);
    this.windows.delete(runId);
    if (open?.pending) this.push(open.pending);
  }
}
