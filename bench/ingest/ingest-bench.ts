/**
 * `npm run bench -- ingest [--rates 100,200,400,800] [--seconds 3]`: T4's ingest
 * benchmark. Plain channel messages (a member's top-level line in a shared space: stored,
 * starting nothing, P3), as signed `event_callback` deliveries at a fixed rate, against a bare
 * Bolt app acking in the same run and against Summon on PostgreSQL + BullMQ and on PGlite +
 * in-process queue. Reports ack throughput and ack p50/p99 per rate, and how long the routing
 * after the ack took to drain what was taken in.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import { Cleanup } from '../core/cleanup';
import { readEndpoints } from '../core/endpoints';
import { preflight } from '../core/preflight';
import { cpuSpent, openServerCpuProbe, type ServerCpuProbe } from '../core/server-cpu';
import { settleServer } from '../core/settle-server';
import { percentile } from '../core/stats';
import { processCpuMs } from '../realpath/process-stats';
import {
  CHANNEL,
  type IngestTarget,
  openBareBolt,
  openDurableBolt,
  openSummon,
  PERSON,
  SIGNING_SECRET,
  TEAM,
} from './ingest-targets';
import type { LoadPlan, LoadResult } from './load-worker';
import { openServe } from './serve-target';

const WARMUP_RATE = 200;
const WARMUP_EVENTS = 2000;

interface Row {
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

const TEMPLATE = JSON.stringify({
  token: 'bench',
  team_id: TEAM,
  api_app_id: 'A0BENCH001',
  event: {
    type: 'message',
    user: PERSON,
    text: 'just chatting, message {{n}}',
    ts: '{{ts}}',
    event_ts: '{{ts}}',
    channel: CHANNEL,
    channel_type: 'channel',
  },
  type: 'event_callback',
  event_id: 'Ev{{n}}',
  event_time: 1,
  authorizations: [{ team_id: TEAM, user_id: 'U0BENCHBOT', is_bot: true }],
});

function load(plan: LoadPlan): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    // tsx's CommonJS hook, registered in the worker, so the worker's TypeScript loads as the bench's does.
    const file = JSON.stringify(join(__dirname, 'load-worker.ts'));
    const worker = new Worker(`require('tsx/cjs'); require(${file});`, { eval: true, workerData: plan });
    worker.once('message', (result: LoadResult | { error: string }) => {
      void worker.terminate();
      if ('error' in result) reject(new Error(result.error));
      else resolve(result);
    });
    worker.once('error', reject);
  });
}

async function measure(
  setup: string,
  target: IngestTarget,
  rate: number,
  count: number,
  tsBase: number,
  drainMs: number,
  servers: ServerCpuProbe,
) {
  const serversBefore = await servers.read();
  const cpuBefore = process.cpuUsage();
  const childBefore = target.pid === undefined ? 0 : processCpuMs(target.pid);
  const started = performance.now();
  const loopBefore = performance.eventLoopUtilization();
  const result = await load({
    url: target.url,
    signingSecret: SIGNING_SECRET,
    ratePerSecond: rate,
    count,
    template: TEMPLATE,
    tsBase,
  });
  const loopBusy = performance.eventLoopUtilization(loopBefore).utilization;
  const unrouted = await target.drained(drainMs);
  const routedAfterMs = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  const childMs = target.pid === undefined ? 0 : processCpuMs(target.pid) - childBefore;
  const spent = cpuSpent(serversBefore, await servers.read());
  const sorted = [...result.latenciesMs].sort((a, b) => a - b);
  const acked = result.statuses['200'] ?? 0;
  const row: Row = {
    setup,
    rate,
    sent: count,
    acked,
    failed: count - acked,
    ackPerSecond: acked / (result.elapsedMs / 1000),
    p50Ms: percentile(sorted, 50),
    p99Ms: percentile(sorted, 99),
    maxMs: sorted.at(-1) ?? Number.NaN,
    routedAfterMs,
    unrouted,
    cpuMsPerEvent: ((cpu.user + cpu.system) / 1000 + childMs) / count,
    loopBusy: target.pid === undefined ? loopBusy : null,
    postgresCpuMsPerEvent: spent.postgresMs === null ? null : spent.postgresMs / count,
  };
  return row;
}

const SETUPS = {
  bare: { label: 'bare Bolt (baseline)', open: (c: Cleanup) => openBareBolt(c) },
  durable: { label: 'bare Bolt + one INSERT', open: (c: Cleanup) => openDurableBolt(readEndpoints(), c) },
  'serve-postgres': {
    label: 'summon serve, PostgreSQL',
    open: (c: Cleanup) => openServe('postgres', readEndpoints(), c),
  },
  'serve-pglite': {
    label: 'summon serve, PGlite',
    open: (c: Cleanup) => openServe('pglite', readEndpoints(), c),
  },
  postgres: {
    label: 'in-process engine, PostgreSQL + BullMQ (diagnostic)',
    open: (c: Cleanup, lanes?: number, batch?: number, acksFirstMs?: number) =>
      openSummon(
        { database: 'postgres', bullmq: true, inboxLanes: lanes, inboxBatch: batch, acksFirstMs },
        readEndpoints(),
        c,
      ),
  },
  pglite: {
    label: 'in-process engine, PGlite (diagnostic)',
    open: (c: Cleanup, lanes?: number, batch?: number, acksFirstMs?: number) =>
      openSummon(
        { database: 'pglite', bullmq: false, inboxLanes: lanes, inboxBatch: batch, acksFirstMs },
        readEndpoints(),
        c,
      ),
  },
} as const;

/** The ingest benchmark with these flags (`npm run bench -- ingest …`, or this file run directly). */
export async function runIngestBench(argv: readonly string[]): Promise<void> {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      rates: { type: 'string', default: '100,200,400,800' },
      seconds: { type: 'string', default: '3' },
      setups: { type: 'string', default: 'bare,durable,serve-postgres,serve-pglite' },
      lanes: { type: 'string' },
      batch: { type: 'string' },
      'acks-first-ms': { type: 'string' },
      label: { type: 'string', default: '' },
      'drain-s': { type: 'string', default: '60' },
    },
  });
  const rates = values.rates.split(',').map(Number);
  const seconds = Number(values.seconds);
  const drainMs = Number(values['drain-s']) * 1000;
  const lanes = values.lanes === undefined ? undefined : Number(values.lanes);
  const batch = values.batch === undefined ? undefined : Number(values.batch);
  const acksFirstMs = values['acks-first-ms'] === undefined ? undefined : Number(values['acks-first-ms']);
  await preflight(readEndpoints());
  const servers = await openServerCpuProbe(readEndpoints().postgresServerUrl, readEndpoints().redisUrl);
  const rows: Row[] = [];
  for (const id of values.setups.split(',') as (keyof typeof SETUPS)[]) {
    const spec = SETUPS[id];
    const cleanup = new Cleanup();
    try {
      const target = await spec.open(cleanup, lanes, batch, acksFirstMs);
      await settleServer(readEndpoints().postgresServerUrl, console.log);
      // Warm-up, not reported: enough events for V8 to have compiled the ack's and routing's hot
      // paths, as in a running server (a short one leaves it compiling in the measured stretch).
      await measure(spec.label, target, WARMUP_RATE, WARMUP_EVENTS, 1_700_000_000, drainMs, servers);
      // And the statistics a running server's autovacuum has gathered by then.
      await target.analyze?.();
      for (const [index, rate] of rates.entries()) {
        const row = await measure(
          spec.label,
          target,
          rate,
          Math.round(rate * seconds),
          1_710_000_000 + index * 100_000,
          drainMs,
          servers,
        );
        console.log(
          `${row.setup.padEnd(30)} ${String(rate).padStart(4)}/s  acked ${row.acked}/${row.sent}  ` +
            `${row.ackPerSecond.toFixed(0)} acks/s  p50 ${row.p50Ms.toFixed(1)} ms  p99 ${row.p99Ms.toFixed(1)} ms  ` +
            `max ${row.maxMs.toFixed(0)} ms  loop ${row.loopBusy === null ? '?' : (row.loopBusy * 100).toFixed(0)}% busy  cpu ${row.cpuMsPerEvent.toFixed(2)} ms/event ` +
            `(+ PostgreSQL ${row.postgresCpuMsPerEvent?.toFixed(2) ?? '?'})  ` +
            (row.unrouted === 0
              ? `all routed after ${(row.routedAfterMs / 1000).toFixed(1)} s`
              : `${row.unrouted} still unrouted after ${(row.routedAfterMs / 1000).toFixed(1)} s`),
        );
        rows.push(row);
      }
    } finally {
      await cleanup.run();
    }
  }
  await servers.close();
  console.log('\nratios to the bare Bolt app at the same rate (throughput: setup ÷ bare)');
  for (const row of rows) {
    const bare = rows.find((r) => r.setup === SETUPS.bare.label && r.rate === row.rate);
    if (bare === undefined || row.setup === SETUPS.bare.label) continue;
    const durable = rows.find((r) => r.setup === SETUPS.durable.label && r.rate === row.rate);
    const floor =
      durable === undefined || row.setup === SETUPS.durable.label
        ? ''
        : `, ${durable.p99Ms.toFixed(1)} ms after one INSERT (the durable write's floor)`;
    console.log(
      `${row.setup.padEnd(30)} ${String(row.rate).padStart(4)}/s  throughput ${(row.ackPerSecond / bare.ackPerSecond).toFixed(2)}×  ` +
        `p99 ${row.p99Ms.toFixed(1)} ms vs ${bare.p99Ms.toFixed(1)} ms bare${floor}` +
        (row.setup.startsWith('summon serve') && row.rate === 800
          ? '  (target: ack p99 ≤ 25 ms at 800/s)'
          : ''),
    );
  }
  const dir = join(__dirname, '..', 'results');
  await mkdir(dir, { recursive: true });
  const file = join(dir, `ingest-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  await writeFile(
    file,
    JSON.stringify(
      {
        benchmark: 'ingest',
        label: values.label,
        seconds,
        lanes,
        batch,
        acksFirstMs,
        cpus: cpus().length,
        rows,
      },
      null,
      2,
    ),
  );
  console.log(`\nwritten to ${file}`);
}

if (require.main === module) {
  runIngestBench(process.argv.slice(2)).catch((error: unknown) => {
    console.error(`bench failed: ${error instanceof Error ? error.stack : String(error)}`);
    process.exitCode = 1;
  });
}
