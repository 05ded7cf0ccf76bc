import { ServiceUnavailableError } from '../errors';
import type { OutageWatch } from './outage-watch';

/** Backoff between tries while a service is away: base * 2^(try-1), capped. */
export interface OutageBackoff {
  baseMs: number;
  maxMs: number;
  /** Give up (throw the last error) once this much time was spent waiting in total. */
  giveUpAfterMs: number;
}

/**
 * Short enough that work goes on within about a second of the service's return; long enough
 * that a process riding out a restart makes a few calls a second, not hundreds. A service away
 * for longer than five minutes is an outage to be told about: the work fails as it did before.
 */
export const DEFAULT_OUTAGE_BACKOFF: OutageBackoff = { baseMs: 100, maxMs: 1000, giveUpAfterMs: 5 * 60_000 };

export interface RetryWhileUnavailableOptions {
  watch?: OutageWatch | undefined;
  backoff?: OutageBackoff;
  /** Aborted: stop waiting and throw the last error. */
  signal?: AbortSignal | undefined;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/**
 * T2: runs `work`, and while it fails because its service is unreachable (and the failed try
 * cannot have taken effect), keeps it in memory and runs it again with backoff. Any other
 * error, and an unavailability that may have half-happened (`maybeDone`), is thrown at once.
 */
export async function retryWhileUnavailable<T>(
  work: () => Promise<T>,
  options: RetryWhileUnavailableOptions = {},
): Promise<T> {
  const { watch, signal } = options;
  const backoff = options.backoff ?? DEFAULT_OUTAGE_BACKOFF;
  const sleep = options.sleep ?? sleepFor;
  let waited = 0;
  for (let attempt = 1; ; attempt += 1) {
    let result: T;
    try {
      result = await work();
    } catch (error) {
      if (!(error instanceof ServiceUnavailableError)) throw error;
      watch?.unavailable(error.service, error);
      if (error.maybeDone || signal?.aborted || waited >= backoff.giveUpAfterMs) throw error;
      const wait = Math.min(backoff.maxMs, backoff.baseMs * 2 ** (attempt - 1));
      waited += wait;
      await sleep(wait, signal);
      continue;
    }
    return result;
  }
}

function sleepFor(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}
