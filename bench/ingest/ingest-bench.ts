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
import { type IngestRow, ingestRoundsSummary, printRatios, rowLine } from './ingest-report';
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
  const row: IngestRow = {
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
      rounds: { type: 'string', default: '1' },
    },
  });
  const rates = values.rates.split(',').map(Number);
  const seconds = Number(values.seconds);
  const drainMs = Number(values['drain-s']) * 1000;
  const lanes = values.lanes === undefined ? undefined : Number(values.lanes);
  const batch = values.batch === undefined ? undefined : Number(values.batch);
  const acksFirstMs = values['acks-first-ms'] === undefined ? undefined : Number(values['acks-first-ms']);
  const roundCount = Number(values.rounds);
  if (!Number.isSafeInteger(roundCount) || roundCount < 1) {
    throw new Error(`--rounds must be a whole number ≥ 1, got "${values.rounds}".`);
  }
  await preflight(readEndpoints());
  const servers = await openServerCpuProbe(readEndpoints().postgresServerUrl, readEndpoints().redisUrl);
  const rounds: IngestRow[][] = [];
  for (let round = 1; round <= roundCount; round++) {
    if (roundCount > 1) console.log(`round ${round} of ${roundCount}`);
    rounds.push(
      await measureRound(values.setups, { rates, seconds, drainMs, lanes, batch, acksFirstMs }, servers),
    );
  }
  await servers.close();
  printRatios(rounds[rounds.length - 1] ?? [], SETUPS.bare.label, SETUPS.durable.label);
  for (const line of ingestRoundsSummary(rounds, SETUPS.bare.label)) console.log(line);
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
        ...(roundCount > 1 ? { rounds } : { rows: rounds[0] }),
      },
      null,
      2,
    ),
  );
  console.log(`\nwritten to ${file}`);
}

/** How every set-up of a round is measured. */
interface RoundPlan {
  rates: number[];
  seconds: number;
  drainMs: number;
  lanes: number | undefined;
  batch: number | undefined;
  acksFirstMs: number | undefined;
}

/** Every set-up once: opened, warmed up, measured at each rate, closed; its rows printed as they come. */
async function measureRound(
  setups: string,
  { rates, seconds, drainMs, lanes, batch, acksFirstMs }: RoundPlan,
  servers: Awaited<ReturnType<typeof openServerCpuProbe>>,
): Promise<IngestRow[]> {
  const rows: IngestRow[] = [];
  for (const id of setups.split(',') as (keyof typeof SETUPS)[]) {
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
        console.log(rowLine(row));
        rows.push(row);
      }
    } finally {
      await cleanup.run();
    }
  }
  return rows;
}

if (require.main === module) {
  runIngestBench(process.argv.slice(2)).catch((error: unknown) => {
    console.error(`bench failed: ${error instanceof Error ? error.stack : String(error)}`);
    process.exitCode = 1;
  });
}
