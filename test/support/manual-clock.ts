import type { Clock } from '../../src/core/ports/clock';

/**
 * A clock whose time moves only when told (`advance`), with timers that fire as it passes
 * them: approval expiries (G4) without waiting 30 minutes. It follows the real time, moved on
 * by what was advanced; given `frozenAt`, only `advance` moves it (a boundary exact to the ms).
 */
export class ManualClock implements Clock {
  private offsetMs = 0;
  private readonly timers = new Set<{ at: number; callback: () => void }>();

  constructor(private readonly frozenAt?: Date) {}

  now(): Date {
    return new Date((this.frozenAt?.getTime() ?? Date.now()) + this.offsetMs);
  }

  setTimer(callback: () => void, delayMs: number): () => void {
    const timer = { at: this.now().getTime() + delayMs, callback };
    this.timers.add(timer);
    return () => this.timers.delete(timer);
  }

  /** Moves time on by `ms` and fires every timer now due. */
  advance(ms: number): void {
    this.offsetMs += ms;
    const now = this.now().getTime();
    for (const timer of [...this.timers]) {
      if (timer.at > now) continue;
      this.timers.delete(timer);
      timer.callback();
    }
  }

  /** Timers not yet fired (a wait that armed its expiry shows here). */
  pending(): number {
    return this.timers.size;
  }
}
