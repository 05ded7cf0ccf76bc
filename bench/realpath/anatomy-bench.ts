import { parseArgs } from 'node:util';
import { Cleanup } from '../core/cleanup';
import type { Endpoints } from '../core/endpoints';
import { type Measurement, nsToMs, summarize } from '../core/stats';
import { startBareBot } from './bare-bot-process';
import { WARMUP_TIMEOUT_MS, withTimeout } from './mention-load';
import { MentionSender } from './mentions';
import { DatabaseProbe, type DatabaseWork, processCpuMs, workBetween } from './process-stats';
import { openProbe } from './realpath-bench';
import { type BenchStandIns, openStandIns } from './stand-ins';
import { type RunningSummon, type SummonSetup, startSummon } from './summon-process';

export interface AnatomyOptions {
  mentions: number;
  warmup: number;
  setups: SummonSetup[];
}

export function parseAnatomyOptions(argv: readonly string[]): AnatomyOptions {
  const { values } = parseArgs({
    args: [...argv],
    strict: true,
    options: {
      mentions: { type: 'string', default: '50' },
      warmup: { type: 'string', default: '10' },
      queue: { type: 'string', default: 'in-process' },
    },
  });
  const mentions = Number(values.mentions);
  const warmup = Number(values.warmup);
  if (!Number.isSafeInteger(mentions) || mentions < 1 || !Number.isSafeInteger(warmup) || warmup < 0)
    throw new Error('--mentions must be an integer ≥ 1 and --warmup ≥ 0.');
  if (values.queue !== 'in-process' && values.queue !== 'bullmq')
    throw new Error('--queue is in-process or bullmq.');
  const bullmq = values.queue === 'bullmq';
  return {
    mentions,
    warmup,
    setups: [
      {
        label: `Summon, PostgreSQL + ${bullmq ? 'BullMQ' : 'in-process queue'}`,
        database: 'postgres',
        bullmq,
      },
    ],
  };
}

/** What a bot spent on a stretch, per reply; the database's part null for a bot without one. */
interface Anatomy {
  label: string;
  replies: Measurement;
  slackCalls: Map<string, number>;
  /** The write that ended each reply, by method. */
  endings: Map<string, number>;
  modelRequests: number;
  cpuMs: number;
  database: DatabaseWork | null;
  /** The last mention's Slack calls in order, ms after it was sent. */
  lastThread: string;
  /** The idle rate taken off the database's counters and the CPU, per second. */
  idle: { cpuMs: number; database: DatabaseWork | null };
}

/**
 * `npm run bench -- anatomy`: one instant turn at a time through the real path (as `instant`),
 * after a warm-up: per reply, the Slack Web API calls by method (counted at the stand-in), the
 * model requests, the PostgreSQL commits and rows inserted and updated in the bench's own
 * database (`pg_stat_database`, `pg_stat_user_tables`), the CPU of the bot's process and of the
 * backends serving its database; beside the bare Bolt bot's same figures. A stretch of the same
 * length with no mentions is measured first and its rate (the inbox's poll, recovery's sweeps)
 * taken off the counters and the CPU.
 */
export async function runAnatomyBench(
  options: AnatomyOptions,
  endpoints: Endpoints,
  log: (line: string) => void,
): Promise<void> {
  log(
    `anatomy: ${options.mentions} mentions one at a time after ${options.warmup}, the model answers at once; per reply:`,
  );
  const shared = new Cleanup();
  try {
    const standIns = await openStandIns(0, shared);
    const bare = await dissect('bare Bolt bot (baseline)', options, standIns, endpoints, (c) =>
      startBareBot(standIns, c),
    );
    for (const line of describe(bare)) log(line);
    for (const setup of options.setups) {
      const anatomy = await dissect(setup.label, options, standIns, endpoints, (c) =>
        startSummon(setup, endpoints, standIns, c),
      );
      for (const line of describe(anatomy)) log(line);
      const calls = [...anatomy.slackCalls.values()].reduce((a, b) => a + b, 0) / anatomy.replies.count;
      const commits = anatomy.database === null ? null : anatomy.database.commits / anatomy.replies.count;
      log(
        `  targets: ≤ 2 Slack calls per reply [${calls.toFixed(2)}], ≤ 6 commits per reply [${commits === null ? '?' : commits.toFixed(1)}]`,
      );
    }
  } finally {
    await shared.run();
  }
}

async function dissect(
  label: string,
  options: AnatomyOptions,
  standIns: BenchStandIns,
  endpoints: Endpoints,
  start: (cleanup: Cleanup) => Promise<RunningSummon>,
): Promise<Anatomy> {
  const cleanup = new Cleanup();
  try {
    const bot = await start(cleanup);
    const sender = new MentionSender(bot.eventsUrl, standIns);
    cleanup.defer('close the sender', async () => sender.close());
    const probe = bot.databaseName === null ? null : await openProbe(endpoints, bot.databaseName, cleanup);
    for (let i = 0; i < options.warmup; i++)
      await withTimeout(sender.send(process.hrtime.bigint()), WARMUP_TIMEOUT_MS);
    await DatabaseProbe.settle();
    const idle = await idleRate(bot.pid, probe);
    standIns.takeCalls();
    standIns.takeModelRequests();
    standIns.takeEndings();
    const began = Date.now();
    const cpuBefore = processCpuMs(bot.pid);
    const dbBefore = (await probe?.read()) ?? null;
    const latencies: number[] = [];
    const first = process.hrtime.bigint();
    let last = { ts: '', sentAt: 0 };
    for (let i = 0; i < options.mentions; i++) {
      const due = process.hrtime.bigint();
      last = { ts: '', sentAt: Date.now() };
      const { replyAt, ts } = await withTimeout(sender.send(due), WARMUP_TIMEOUT_MS);
      last.ts = ts;
      latencies.push(nsToMs(replyAt - due));
    }
    const elapsedMs = nsToMs(process.hrtime.bigint() - first);
    await DatabaseProbe.settle(); // the turns' last calls and the backends' counters land
    const cpuMs = processCpuMs(bot.pid) - cpuBefore;
    const dbAfter = (await probe?.read()) ?? null;
    const seconds = (Date.now() - began) / 1000;
    const database = dbBefore === null || dbAfter === null ? null : workBetween(dbBefore, dbAfter);
    // Before `takeCalls`, which lets the calls go.
    const lastThread = standIns
      .callsInThread(last.ts)
      .map((c) => `${c.method} +${c.at - last.sentAt} ms`)
      .join(', ');
    return {
      label,
      replies: summarize(latencies, elapsedMs),
      slackCalls: standIns.takeCalls(),
      endings: standIns.takeEndings(),
      modelRequests: standIns.takeModelRequests(),
      lastThread,
      cpuMs: cpuMs - idle.cpuMs * seconds,
      database:
        database === null || idle.database === null ? database : lessIdle(database, idle.database, seconds),
      idle,
    };
  } finally {
    await cleanup.run();
  }
}

/** The bot's CPU and its database's counters per second with no mentions. */
async function idleRate(pid: number, probe: DatabaseProbe | null): Promise<Anatomy['idle']> {
  const began = Date.now();
  const cpuBefore = processCpuMs(pid);
  const dbBefore = (await probe?.read()) ?? null;
  await DatabaseProbe.settle();
  const cpuMs = processCpuMs(pid) - cpuBefore;
  const dbAfter = (await probe?.read()) ?? null;
  const seconds = (Date.now() - began) / 1000;
  const database = dbBefore === null || dbAfter === null ? null : workBetween(dbBefore, dbAfter);
  return {
    cpuMs: cpuMs / seconds,
    database:
      database === null
        ? null
        : {
            commits: database.commits / seconds,
            inserted: database.inserted / seconds,
            updated: database.updated / seconds,
            hotUpdated: database.hotUpdated / seconds,
            backendCpuMs: database.backendCpuMs / seconds,
            walBytes: database.walBytes / seconds,
          },
  };
}

const lessIdle = (work: DatabaseWork, idle: DatabaseWork, seconds: number): DatabaseWork => ({
  commits: work.commits - idle.commits * seconds,
  inserted: work.inserted - idle.inserted * seconds,
  updated: work.updated - idle.updated * seconds,
  hotUpdated: work.hotUpdated - idle.hotUpdated * seconds,
  backendCpuMs: work.backendCpuMs - idle.backendCpuMs * seconds,
  walBytes: work.walBytes - idle.walBytes * seconds,
});

function describe(a: Anatomy): string[] {
  const n = a.replies.count;
  const per = (v: number, digits = 2) => (v / n).toFixed(digits);
  const total = [...a.slackCalls.values()].reduce((x, y) => x + y, 0);
  const byMethod = [...a.slackCalls.entries()]
    .sort((x, y) => y[1] - x[1])
    .map(([method, calls]) => `${method} ${per(calls)}`)
    .join(', ');
  const lines = [
    `${a.label}: reply p50 ${a.replies.p50Ms.toFixed(1)} ms, p99 ${a.replies.p99Ms.toFixed(1)} ms (one at a time)`,
    `  Slack calls ${per(total)} (${byMethod}); model requests ${per(a.modelRequests)}; cpu of the bot ${per(a.cpuMs)} ms`,
    `  the last mention's Slack calls, in order: ${a.lastThread}`,
    `  each reply ended with: ${[...a.endings.entries()].map(([method, k]) => `${method} ${k}`).join(', ')}`,
  ];
  if (a.database !== null) {
    lines.push(
      `  PostgreSQL: commits ${per(a.database.commits, 1)}, rows inserted ${per(a.database.inserted, 1)}, updated ${per(a.database.updated, 1)} (HOT ${per(a.database.hotUpdated, 1)}), WAL ${per(a.database.walBytes, 0)} bytes, backends' cpu ${per(a.database.backendCpuMs)} ms`,
    );
    const idle = a.idle.database;
    if (idle !== null)
      lines.push(
        `  (idle rate taken off, per second: ${idle.commits.toFixed(2)} commits, ${idle.walBytes.toFixed(0)} WAL bytes, ${a.idle.cpuMs.toFixed(2)} ms of the bot's cpu, ${idle.backendCpuMs.toFixed(2)} ms of the backends')`,
      );
  }
  return lines;
}
