import type { RoundTrip } from './drive';
import { type Measurement, nsToMs, summarize } from './stats';

/**
 * Starts `count` round trips at `ratePerSecond`, open loop (round trip i is due at i ÷ rate,
 * whether or not the earlier ones ended), and measures each from when it was due to its end:
 * a system that falls behind shows its queue, and a late timer on a loaded machine is counted
 * against the system, not hidden. Throws the first failure once all have settled.
 */
export async function openLoop(
  ratePerSecond: number,
  count: number,
  roundTrip: RoundTrip,
): Promise<Measurement> {
  const first = process.hrtime.bigint();
  const gapNs = BigInt(Math.round(1e9 / ratePerSecond));
  const trips: Promise<{ ms: number; end: bigint }>[] = [];
  for (let i = 0; i < count; i++) {
    const due = first + gapNs * BigInt(i);
    const waitMs = nsToMs(due - process.hrtime.bigint());
    if (waitMs > 1) await new Promise((resolve) => setTimeout(resolve, waitMs));
    trips.push(roundTrip().then((end) => ({ ms: nsToMs(end - due), end })));
  }
  const settled = await Promise.allSettled(trips);
  const failed = settled.find((s) => s.status === 'rejected');
  if (failed !== undefined) throw (failed as PromiseRejectedResult).reason;
  const done = settled.map((s) => (s as PromiseFulfilledResult<{ ms: number; end: bigint }>).value);
  let last = first;
  for (const d of done) if (d.end > last) last = d.end;
  return summarize(
    done.map((d) => d.ms),
    nsToMs(last - first),
  );
}
