import type { ProcessSlots } from '../../core/ports/process-slots';
import type { FairSemaphore } from './fair-semaphore';

/** What one run's processes hold of the bound, in this process. */
interface RunHold {
  /** Its processes alive here. */
  processes: number;
  /** The slots they hold (each one's release). */
  held: (() => void)[];
  /** Slots given back by waits in progress, owed to the run's processes when the waits end. */
  lent: number;
  /** Slots being taken again after a wait (in the queue); aborted when a process ends first. */
  taking: Set<AbortController>;
}

/**
 * T1, T3: the process concurrency bound (`FairSemaphore`, first come first served) with its
 * slots held per run, so that a run whose process waits for a person gives a slot back
 * meanwhile (`ProcessSlots`). Every slot stays counted once: a process that ends gives back
 * what its run holds for it, whether held, lent to a wait or being taken again.
 */
export class RunProcessSlots implements ProcessSlots {
  private readonly runs = new Map<string, RunHold>();

  constructor(private readonly semaphore: FairSemaphore) {}

  /**
   * A slot for a new process of run `runId` (none: a process of no run), in turn; rejects with
   * the reason when `signal` aborts first. The returned function, called once the process has
   * ended, gives back what the run holds for it (once).
   */
  async hold(runId: string | undefined, signal?: AbortSignal): Promise<() => void> {
    const release = await this.semaphore.acquire(signal);
    if (runId === undefined) return release;
    let run = this.runs.get(runId);
    if (run === undefined) {
      run = { processes: 0, held: [], lent: 0, taking: new Set() };
      this.runs.set(runId, run);
    }
    run.processes += 1;
    run.held.push(release);
    const hold = run;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.ended(runId, hold);
    };
  }

  async suspendWhile<T>(runId: string, wait: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    const run = this.runs.get(runId);
    const lent = run !== undefined && this.lend(run);
    try {
      return await wait();
    } finally {
      if (run !== undefined && lent) await this.takeBack(run, signal);
    }
  }

  /** T1: one slot of `run` given back (one being taken again counts: its process waits again). */
  private lend(run: RunHold): boolean {
    const release = run.held.pop();
    const taking = first(run.taking);
    if (release !== undefined) {
      release(); // the slot passes straight to the next process in line
    } else if (taking !== undefined) {
      run.taking.delete(taking);
      taking.abort();
    } else return false;
    run.lent += 1;
    return true;
  }

  /** T3: the slot a wait gave back, taken again behind every process already waiting for one. */
  private takeBack(run: RunHold, signal: AbortSignal | undefined): Promise<void> {
    if (run.lent === 0) return Promise.resolve(); // the run's processes ended meanwhile
    run.lent -= 1;
    const cancel = new AbortController();
    run.taking.add(cancel);
    const taken = this.semaphore.acquire(cancel.signal).then(
      (release) => {
        // Granted just as its process ended (or as its run waited again): not kept.
        if (cancel.signal.aborted) return release();
        run.taking.delete(cancel);
        run.held.push(release);
      },
      () => undefined, // cancelled: no process is left to run on with it
    );
    return signal === undefined ? taken : untilAborted(taken, signal);
  }

  /**
   * A process of `run` ended. While its run waits it is most likely the waiting one, so what
   * is dropped is, in this order, a slot lent to a wait, one being taken again, one held.
   */
  private ended(runId: string, run: RunHold): void {
    run.processes -= 1;
    const taking = first(run.taking);
    if (run.lent > 0) run.lent -= 1;
    else if (taking !== undefined) {
      run.taking.delete(taking);
      taking.abort();
    } else run.held.pop()?.();
    if (run.processes === 0 && this.runs.get(runId) === run) this.runs.delete(runId);
  }
}

function first<T>(items: Set<T>): T | undefined {
  for (const item of items) return item;
  return undefined;
}

/** Resolves with `done`, or earlier when `signal` aborts. */
function untilAborted(done: Promise<void>, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const onAbort = () => resolve();
    signal.addEventListener('abort', onAbort, { once: true });
    void done.then(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    });
  });
}
