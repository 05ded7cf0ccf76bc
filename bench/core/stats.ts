/** One measured series of round trips. Times are milliseconds. */
export interface Measurement {
  count: number;
  /** From the first round trip's start to the last one's end. */
  elapsedMs: number;
  /** Round trips per second over `elapsedMs`. */
  throughput: number;
  p50Ms: number;
  p99Ms: number;
  meanMs: number;
  minMs: number;
  maxMs: number;
}

/** Nearest-rank percentile of ascending values (p in 0..100). */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) throw new Error('no values to take a percentile of');
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[Math.min(rank, sorted.length) - 1] ?? Number.NaN;
}

/** The middle value of `values` (the mean of the two middle ones for an even count). */
export function median(values: readonly number[]): number {
  if (values.length === 0) throw new Error('no values to take a median of');
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** Milliseconds as a report prints them: seconds from 10 s up. */
export const millisText = (v: number): string =>
  v >= 10_000 ? `${(v / 1000).toFixed(1)} s` : `${v.toFixed(1)} ms`;

export function summarize(latenciesMs: readonly number[], elapsedMs: number): Measurement {
  const sorted = [...latenciesMs].sort((a, b) => a - b);
  const total = sorted.reduce((sum, value) => sum + value, 0);
  return {
    count: sorted.length,
    elapsedMs,
    throughput: sorted.length / (elapsedMs / 1000),
    p50Ms: percentile(sorted, 50),
    p99Ms: percentile(sorted, 99),
    meanMs: total / sorted.length,
    minMs: sorted[0] ?? Number.NaN,
    maxMs: sorted[sorted.length - 1] ?? Number.NaN,
  };
}

export const nsToMs = (ns: bigint): number => Number(ns) / 1e6;
