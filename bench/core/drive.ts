import { type Measurement, nsToMs, summarize } from './stats';

/** One round trip: resolves with the `process.hrtime.bigint()` at which it was seen to end. */
export type RoundTrip = () => Promise<bigint>;

/**
 * Runs `count` round trips with at most `concurrency` in flight (a new one starts as soon as
 * one ends) and measures each from its start to the end it reports. Stops starting new ones
 * after the first failure or when `signal` aborts, waits for those in flight, then throws.
 */
export async function drive(
  count: number,
  concurrency: number,
  roundTrip: RoundTrip,
  signal: AbortSignal,
): Promise<Measurement> {
  const latencies: number[] = [];
  let started = 0;
  let failure: unknown = null;
  const first = process.hrtime.bigint();
  let last = first;

  const lane = async () => {
    while (started < count && failure === null && !signal.aborted) {
      started += 1;
      const start = process.hrtime.bigint();
      try {
        const end = await roundTrip();
        latencies.push(nsToMs(end - start));
        if (end > last) last = end;
      } catch (error) {
        failure ??= error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, lane));
  if (failure !== null) throw failure;
  if (signal.aborted) throw new Error('interrupted');
  return summarize(latencies, nsToMs(last - first));
}
