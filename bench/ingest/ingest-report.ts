import { median, millisText } from '../core/stats';

/** One set-up at one rate: what the ingest bench measured. */
export interface IngestRow {
  setup: string;
  rate: number;
  sent: number;
  acked: number;
  failed: number;
  ackPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** From the first delivery to the last stored event routed (equal to the acks when routing precedes the ack). */
  routedAfterMs: number;
  /** Stored events still unrouted when the wait for routing (`--drain-s`) ended. */
  unrouted: number;
  /**
   * This process's CPU time per event over the deliveries and the wait for routing: the server
   * under test and the sender's thread (the same sender for every set-up, so compare within a run);
   * with `summon serve` in a child, the child's too.
   */
  cpuMsPerEvent: number;
  /**
   * How busy the server's event loop (the main thread: Bolt, the acks, routing) was while the
   * events were sent: 1 is a loop that never waited, so every ack queued behind other work. Null
   * for a server in a child process (`summon serve`), whose loop this process cannot see.
   */
  loopBusy: number | null;
  /** The PostgreSQL server's CPU time per event over the same stretch (`server-cpu.ts`); null unreadable. */
  postgresCpuMsPerEvent: number | null;
}

/** One row as it is printed when measured. */
export const rowLine = (row: IngestRow): string =>
  `${row.setup.padEnd(30)} ${String(row.rate).padStart(4)}/s  acked ${row.acked}/${row.sent}  ` +
  `${row.ackPerSecond.toFixed(0)} acks/s  p50 ${row.p50Ms.toFixed(1)} ms  p99 ${row.p99Ms.toFixed(1)} ms  ` +
  `max ${row.maxMs.toFixed(0)} ms  loop ${row.loopBusy === null ? '?' : (row.loopBusy * 100).toFixed(0)}% busy  cpu ${row.cpuMsPerEvent.toFixed(2)} ms/event ` +
  `(+ PostgreSQL ${row.postgresCpuMsPerEvent?.toFixed(2) ?? '?'})  ` +
  (row.unrouted === 0
    ? `all routed after ${(row.routedAfterMs / 1000).toFixed(1)} s`
    : `${row.unrouted} still unrouted after ${(row.routedAfterMs / 1000).toFixed(1)} s`);

/** T4's goal, read at this rate only: `summon serve`'s ack p99 (`instant` prints its acks beside it). */
const GOAL_RATE = 800;
export const ACK_P99_GOAL_MS = 25;

/** Whether T4's ack goal is read from this set-up at this rate. */
const holdsTheGoal = (setup: string, rate: number): boolean =>
  setup.startsWith('summon serve') && rate === GOAL_RATE;

/**
 * After several rounds (`--rounds`): each set-up's median ack p99 and throughput at each rate,
 * the throughput taken against the bare app of its own round first (a slow stretch of the
 * machine weighs on both), and for `summon serve` at 800/s in how many rounds its p99 met T4's
 * goal. On a shared machine one run is not a measurement: its p99 moves with the machine.
 */
export function ingestRoundsSummary(rounds: readonly (readonly IngestRow[])[], bareLabel: string): string[] {
  if (rounds.length < 2) return [];
  const lines = [`medians over ${rounds.length} rounds (throughput against the bare app of its own round):`];
  const keys = new Map<string, { setup: string; rate: number }>();
  for (const row of rounds.flat()) keys.set(`${row.setup}\u0000${row.rate}`, row);
  for (const { setup, rate } of keys.values()) {
    const mine = rounds.map((round) => ({
      row: round.find((r) => r.setup === setup && r.rate === rate),
      bare: round.find((r) => r.setup === bareLabel && r.rate === rate),
    }));
    const p99s = mine.flatMap(({ row }) => (row === undefined ? [] : [row.p99Ms]));
    const throughputs = mine.flatMap(({ row, bare }) =>
      row === undefined || bare === undefined ? [] : [row.ackPerSecond / bare.ackPerSecond],
    );
    const goal = holdsTheGoal(setup, rate)
      ? `; ack p99 ≤ ${ACK_P99_GOAL_MS} ms met in ${p99s.filter((p) => p <= ACK_P99_GOAL_MS).length} of ${p99s.length} rounds`
      : '';
    const ratio = setup === bareLabel ? '' : `  throughput ${median(throughputs).toFixed(2)}×`;
    lines.push(
      `  ${setup.padEnd(30)} ${String(rate).padStart(4)}/s  ack p99 ${millisText(median(p99s))} (rounds ${p99s.map((p) => p.toFixed(1)).join(', ')})${ratio}${goal}`,
    );
  }
  return lines;
}

/** Each set-up's throughput and ack p99 against the bare app's at the same rate, in one round. */
export function printRatios(rows: readonly IngestRow[], bareLabel: string, durableLabel: string): void {
  console.log('\nratios to the bare Bolt app at the same rate (throughput: setup ÷ bare)');
  for (const row of rows) {
    const bare = rows.find((r) => r.setup === bareLabel && r.rate === row.rate);
    if (bare === undefined || row.setup === bareLabel) continue;
    const durable = rows.find((r) => r.setup === durableLabel && r.rate === row.rate);
    const floor =
      durable === undefined || row.setup === durableLabel
        ? ''
        : `, ${durable.p99Ms.toFixed(1)} ms after one INSERT (the durable write's floor)`;
    console.log(
      `${row.setup.padEnd(30)} ${String(row.rate).padStart(4)}/s  throughput ${(row.ackPerSecond / bare.ackPerSecond).toFixed(2)}×  ` +
        `p99 ${row.p99Ms.toFixed(1)} ms vs ${bare.p99Ms.toFixed(1)} ms bare${floor}` +
        (holdsTheGoal(row.setup, row.rate)
          ? `  (target: ack p99 ≤ ${ACK_P99_GOAL_MS} ms at ${GOAL_RATE}/s)`
          : ''),
    );
  }
}
