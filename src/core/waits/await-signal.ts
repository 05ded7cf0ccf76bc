import { type Clock, startTimer } from '../ports/clock';
import type { WaitSignals } from '../ports/wait-signals';

export type AwaitOutcome<T> = { state: 'ready'; value: T } | { state: 'expired' } | { state: 'aborted' };

export interface AwaitRequest<T> {
  topic: string;
  /** Reads the stored state once; a value ends the wait, null keeps waiting. */
  check: () => Promise<T | null>;
  /** The wait ends at this time on the clock (after one last check); absent: no end. */
  until?: Date;
  signal: AbortSignal;
}

/**
 * T1: waits for a stored state without polling. Subscribes first, then checks once (so a
 * change between the two is never missed), then sleeps until a notification, the end time
 * (a timer from the clock) or the abort, and checks again. A wait that can later resume
 * from a durable record (T2) needs nothing more than `topic`, `check` and `until`.
 */
export async function awaitSignal<T>(
  deps: { signals: WaitSignals; clock: Clock },
  request: AwaitRequest<T>,
): Promise<AwaitOutcome<T>> {
  const { signal, until } = request;
  let rang = false;
  let wake: (() => void) | null = null;
  const ring = () => {
    rang = true;
    wake?.();
  };
  const unsubscribe = await deps.signals.subscribe(request.topic, ring);
  signal.addEventListener('abort', ring);
  try {
    for (;;) {
      if (signal.aborted) return { state: 'aborted' };
      rang = false;
      const value = await request.check();
      if (value !== null) return { state: 'ready', value };
      const left = until === undefined ? null : until.getTime() - deps.clock.now().getTime();
      if (left !== null && left <= 0) return { state: 'expired' };
      if (signal.aborted) return { state: 'aborted' };
      if (rang) continue; // notified while checking: look again at once
      await new Promise<void>((resolve) => {
        const cancel = left === null ? () => {} : startTimer(deps.clock, resolve, left);
        wake = () => {
          cancel();
          resolve();
        };
      });
      wake = null;
    }
  } finally {
    signal.removeEventListener('abort', ring);
    unsubscribe();
  }
}
