export interface Clock {
  now(): Date;
  /**
   * Calls `callback` once `delayMs` have passed on this clock; the returned function cancels
   * it. Absent: real timers (`startTimer`). A test clock implements it to drive expiries.
   */
  setTimer?(callback: () => void, delayMs: number): () => void;
}

/** The longest delay a Node timer takes; longer waits re-arm. */
const MAX_TIMER_MS = 2_147_483_647;

/** A timer on `clock` (its own when it has one), never longer than a Node timer allows. */
export function startTimer(clock: Clock, callback: () => void, delayMs: number): () => void {
  const ms = Math.min(Math.max(0, delayMs), MAX_TIMER_MS);
  if (clock.setTimer !== undefined) return clock.setTimer(callback, ms);
  const timer = setTimeout(callback, ms);
  return () => clearTimeout(timer);
}

export const systemClock: Clock = { now: () => new Date() };
