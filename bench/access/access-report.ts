import type { Measurement } from '../core/stats';
import type { BurstCounts } from './access-probe';

type Measured = { time: Measurement; counts: BurstCounts };

/** One round, in order: the baseline, the two admitted bursts, the baseline again; each timed and counted. */
export interface Round {
  explicit: Measured;
  first: Measured;
  again: Measured;
  explicitAfter: Measured;
}

/** The baseline at an admitted burst's place (1: first write, 2: again), drawn between the round's two. */
const baselineAt = (r: Round, place: 1 | 2, of: (m: Measured) => number): number =>
  of(r.explicit) + ((of(r.explicitAfter) - of(r.explicit)) * place) / 3;

/** A burst's counts per message: what each costs the store, this process and PostgreSQL. */
export function countsLine(c: BurstCounts, burst: number): string {
  const per = (n: number) => (n / burst).toFixed(2);
  const rows = [...c.rows].map(([table, n]) => `${table} ${per(n)}`).join(', ');
  const wal =
    c.wal === null
      ? ''
      : `; WAL ${per([...c.wal.values()].reduce((sum, w) => sum + w.bytes, 0))} bytes in ${per(
          [...c.wal.values()].reduce((sum, w) => sum + w.records, 0),
        )} records (members: ${[...c.wal]
          .filter(([name]) => name.includes('members'))
          .map(([name, w]) => `${name} ${per(w.records)}`)
          .join(', ')})`;
  return (
    `per message ${per(c.statements)} statements, ${per(c.roundTrips)} round trips, ` +
    `${per(c.transactions)} transactions, ${per(c.bytesSent)} bytes sent; CPU ${per(c.summonCpuMs)} ms Summon, ` +
    `${c.postgresCpuMs === null ? '?' : per(c.postgresCpuMs)} ms PostgreSQL; rows: ${rows}${wal}`
  );
}

/**
 * Each round's ratio to its own baseline (drawn between its two explicit bursts at the admitted
 * burst's place), then their median: a busy round weighs on both; with the counts' medians.
 */
export function summary(results: readonly Round[], options: { rounds: number; people: number }): string {
  const median = (pick: (r: Round) => number) =>
    results.map(pick).sort((a, b) => a - b)[Math.floor(results.length / 2)] ?? Number.NaN;
  const ratio = (key: 'first' | 'again', of: (m: Measured) => number) =>
    median((r) => of(r[key]) / baselineAt(r, key === 'first' ? 1 : 2, of)).toFixed(2);
  const time = (m: Measured) => m.time.elapsedMs;
  const p99 = (m: Measured) => m.time.p99Ms;
  const cpu = (m: Measured) => m.counts.summonCpuMs + (m.counts.postgresCpuMs ?? 0);
  return (
    `median of ${options.rounds} rounds' ratios, ${options.people} admitted people in the guild (goal ≤ 1.1× explicit): ` +
    `burst time ×${ratio('again', time)} again, ×${ratio('first', time)} first write; ` +
    `p99 ×${ratio('again', p99)} again, ×${ratio('first', p99)} first write; ` +
    `CPU (Summon + PostgreSQL) ×${ratio('again', cpu)} again, ×${ratio('first', cpu)} first write; ` +
    `median CPU a message, Summon + PostgreSQL: ${(['explicit', 'first', 'again'] as const)
      .map((key) => {
        const ms = (pick: (m: Measured) => number | null) =>
          (median((r) => pick(r[key]) ?? Number.NaN) / r0(results, key)).toFixed(2);
        return `${key} ${ms((m) => m.counts.summonCpuMs)} + ${ms((m) => m.counts.postgresCpuMs)} ms`;
      })
      .join(', ')}; median WAL a message: ${(['explicit', 'first', 'again'] as const)
      .map((key) => {
        const bytes = (m: Measured) =>
          m.counts.wal === null
            ? Number.NaN
            : [...m.counts.wal.values()].reduce((sum, w) => sum + w.bytes, 0);
        return `${key} ${(median((r) => bytes(r[key])) / r0(results, key)).toFixed(0)} bytes`;
      })
      .join(', ')}`
  );
}

/** Messages a burst of `key` sent. */
const r0 = (results: readonly Round[], key: 'explicit' | 'first' | 'again') =>
  results[0]?.[key].time.count ?? 1;
