/**
 * `npm run bench -- instant --in-process [--rate 200] [--seconds 5]`: a diagnostic of the engine's
 * per-turn cost (the goals are measured on the real path: `realpath/realpath-bench.ts`). Mentions,
 * each top-level in a new thread, handed to the real engine (`receive`) open loop at `--rate`;
 * the model answers at once. Event → reply p50/p99 on PostgreSQL + BullMQ and PGlite +
 * in-process, beside a bare BullMQ round trip (add → empty processor → completed) at the same
 * rate in the same run.
 */
import { parseArgs } from 'node:util';
import { DEFAULT_CONCURRENCY } from '../../src/core/engine/waits/turn-slots';
import { openBaseline } from '../core/baseline';
import { Cleanup } from '../core/cleanup';
import type { RoundTrip } from '../core/drive';
import type { Endpoints } from '../core/endpoints';
import { openEngineSetup, SETUPS } from '../core/engine-setup';
import { openLoop } from '../core/open-loop';
import { cpuSpent, openServerCpuProbe, type ServerCpu, type ServerCpuProbe } from '../core/server-cpu';
import type { Measurement } from '../core/stats';

// Long: on a loaded machine a set-up that falls far behind is still measured, not failed.
const TIMEOUT_MS = 600_000;

export interface InstantBenchOptions {
  rate: number;
  seconds: number;
}

export function parseInstantOptions(argv: readonly string[]): InstantBenchOptions {
  const { values } = parseArgs({
    args: [...argv],
    strict: true,
    options: { rate: { type: 'string', default: '200' }, seconds: { type: 'string', default: '5' } },
  });
  const rate = Number(values.rate);
  const seconds = Number(values.seconds);
  if (!(rate > 0) || !(seconds > 0)) throw new Error('--rate and --seconds must be positive numbers.');
  return { rate, seconds };
}

/**
 * With this process's CPU time (user + system) per reply: steadier than latency on a shared
 * machine. And the PostgreSQL and Redis servers' per reply (`server-cpu.ts`), which share the
 * machine's CPUs with this process: together, what a reply costs the machine.
 */
interface CpuMeasurement extends Measurement {
  cpuMsPerReply: number;
  servers: ServerCpu;
}

const perReply = (ms: number | null, count: number) => (ms === null ? '?' : (ms / count).toFixed(2));

const line = (label: string, m: CpuMeasurement) =>
  `${label.padEnd(34)} ${m.throughput.toFixed(0).padStart(5)} replies/s  p50 ${m.p50Ms.toFixed(1).padStart(8)} ms  p99 ${m.p99Ms.toFixed(1).padStart(8)} ms  max ${m.maxMs.toFixed(0)} ms  cpu ${m.cpuMsPerReply.toFixed(2)} ms/reply (+ PostgreSQL ${perReply(m.servers.postgresMs, m.count)}, Redis ${perReply(m.servers.redisMs, m.count)})`;

/**
 * Each set-up is measured twice at the rate, one stretch right after the other: `first`, after
 * only a light warm-up (50 mentions at up to 50/s), so it includes what a process pays the first
 * time it meets the rate (code not yet optimised for it, its heap still growing); `steady`, the
 * same load again on the same process, as it runs once it has been up for a while.
 */
interface Stretches {
  first: CpuMeasurement;
  steady: CpuMeasurement;
}

async function stretch(
  roundTrip: RoundTrip,
  options: InstantBenchOptions,
  servers: ServerCpuProbe,
): Promise<CpuMeasurement> {
  const serversBefore = await servers.read();
  const cpuBefore = process.cpuUsage();
  const measurement = await openLoop(options.rate, Math.round(options.rate * options.seconds), roundTrip);
  const cpu = process.cpuUsage(cpuBefore);
  return {
    ...measurement,
    cpuMsPerReply: (cpu.user + cpu.system) / 1000 / measurement.count,
    servers: cpuSpent(serversBefore, await servers.read()),
  };
}

async function measured(
  open: (cleanup: Cleanup) => Promise<RoundTrip>,
  options: InstantBenchOptions,
  servers: ServerCpuProbe,
): Promise<Stretches> {
  const cleanup = new Cleanup();
  try {
    const roundTrip = await open(cleanup);
    await openLoop(Math.min(options.rate, 50), 50, roundTrip); // warm-up, not reported
    const first = await stretch(roundTrip, options, servers);
    const steady = await stretch(roundTrip, options, servers);
    return { first, steady };
  } finally {
    await cleanup.run();
  }
}

export async function runInstantBench(
  options: InstantBenchOptions,
  endpoints: Endpoints,
  log: (line: string) => void,
): Promise<void> {
  const settings = { workerConcurrency: DEFAULT_CONCURRENCY, timeoutMs: TIMEOUT_MS };
  log(
    `DIAGNOSTIC (--in-process: engine.receive, an in-process runner and platform; no Bolt, no HTTP, no goal): instant model, ${options.rate} mentions/s for ${options.seconds} s, each in its own thread:`,
  );
  const servers = await openServerCpuProbe(endpoints.postgresServerUrl, endpoints.redisUrl);
  try {
    await measureAll(options, endpoints, settings, servers, log);
  } finally {
    await servers.close();
  }
}

async function measureAll(
  options: InstantBenchOptions,
  endpoints: Endpoints,
  settings: { workerConcurrency: number; timeoutMs: number },
  servers: ServerCpuProbe,
  log: (line: string) => void,
): Promise<void> {
  const baseline = await measured(
    (cleanup) => openBaseline(endpoints.redisUrl, settings, cleanup),
    options,
    servers,
  );
  log(line('baseline: bare BullMQ, first', baseline.first));
  log(line('baseline: bare BullMQ, steady', baseline.steady));
  const only = process.env.SUMMON_BENCH_SETUP;
  for (const spec of SETUPS.filter(
    (s) => s.id !== 'postgres-in-process' && (only === undefined || s.id === only),
  )) {
    const result = await measured(
      async (cleanup) => {
        const setup = await openEngineSetup(spec, endpoints, settings, cleanup);
        return setup.roundTrip;
      },
      options,
      servers,
    );
    for (const which of ['first', 'steady'] as const) {
      const m = result[which];
      log(
        `${line(`${spec.label}, ${which}`, m)}  (p99 ${(m.p99Ms / baseline[which].p99Ms).toFixed(1)}× the baseline's; diagnostic)`,
      );
    }
  }
}
